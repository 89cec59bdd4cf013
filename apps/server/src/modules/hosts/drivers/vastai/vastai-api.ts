import { setTimeout as sleep } from 'node:timers/promises';
import {
  ContainerNotFoundError,
  DriverFailureError,
  HostDriverError,
  HostUnreachableError,
  ImageNotFoundError,
} from '../driver-errors.ts';

/** vast.ai's documented API root; VASTAI_API_URL overrides it (tests point it at a local fake). */
export const VASTAI_DEFAULT_URL = 'https://console.vast.ai/api/v0';

/** An offer as POST /bundles/ answers it (the fields we read). */
export interface VastOffer {
  id: number;
  gpu_name: string;
  num_gpus: number;
  /** Per GPU, MB. */
  gpu_ram: number;
  cpu_name?: string | null;
  cpu_cores_effective?: number | null;
  /** MB. */
  cpu_ram?: number | null;
  /** GB available for the instance disk. */
  disk_space?: number | null;
  /** USD per hour for the whole offer (all its GPUs). */
  dph_total: number;
  geolocation?: string | null;
  cuda_max_good?: number | null;
  driver_version?: string | null;
  reliability2?: number | null;
  rentable?: boolean;
}

/** An instance as GET /instances/{id}/ answers it (the fields we read). */
export interface VastInstance {
  id: number;
  label: string | null;
  image_uuid: string | null;
  /** created, loading, running, exited (null while vast.ai schedules it). */
  actual_status: string | null;
  intended_status: string | null;
  status_msg?: string | null;
  num_gpus: number;
  gpu_name: string;
  ssh_host: string | null;
  ssh_port: number | null;
  public_ipaddr?: string | null;
  ports?: Record<string, { HostIp: string; HostPort: string }[]> | null;
  /** Unix seconds. */
  start_date?: number | null;
  dph_total?: number;
}

/** The vast.ai error body: `{ success: false, error: "invalid_args", msg: "..." }`. */
interface VastErrorBody {
  success?: boolean;
  error?: string;
  msg?: string;
}

export class VastUnreachableError extends HostUnreachableError {
  constructor(detail?: string) {
    super(detail);
    this.message = '无法连接 vast.ai，请稍后重试';
  }
}

/** The offer was rented by someone else or withdrawn (404 no_such_ask). */
export class VastOfferGoneError extends HostDriverError {
  constructor(detail?: string) {
    super('GPU_UNAVAILABLE', '该海外机器已被租用或下架，请选择其他机器', detail);
  }
}

export interface VastClientOptions {
  apiUrl: string;
  apiKey: string;
  /** Per call; a call that takes longer is abandoned as unreachable. */
  timeoutMs?: number;
  /** First wait after a 429 without Retry-After; each next wait ×1.5, capped at maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Attempts per call when vast.ai keeps answering 429. */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

export type VastClient = ReturnType<typeof createVastClient>;

/** What a non-2xx answer means, as a typed driver error with a Chinese message. */
export function vastError(status: number, body: VastErrorBody, what: string): HostDriverError {
  const detail = `${what}: HTTP ${status} ${body.error ?? ''} ${body.msg ?? ''}`.trim();
  if (status === 401 || status === 403)
    return new DriverFailureError(detail, 'vast.ai API 密钥无效或没有权限');
  if (status === 404 && body.error === 'no_such_ask') return new VastOfferGoneError(detail);
  if (status === 404 || status === 410) return new ContainerNotFoundError(what, detail);
  if (status === 400 && /image/i.test(body.msg ?? '')) return new ImageNotFoundError(what, detail);
  if (status === 400) return new DriverFailureError(detail, 'vast.ai 拒绝了请求参数，请检查镜像和磁盘大小');
  if (status === 429) return new DriverFailureError(detail, 'vast.ai 请求过于频繁，请稍后重试');
  if (status >= 500) return new DriverFailureError(detail, 'vast.ai 服务暂时不可用，请稍后重试');
  return new DriverFailureError(detail, 'vast.ai 请求失败');
}

/**
 * vast.ai's REST API with the Bearer key. Every call has a timeout; 429 is retried after
 * Retry-After when given, else after a backoff growing ×1.5 up to a cap.
 */
export function createVastClient(opts: VastClientOptions) {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBackoff = opts.maxBackoffMs ?? 10_000;
  const maxAttempts = opts.maxAttempts ?? 6;
  const wait = opts.sleep ?? ((ms: number) => sleep(ms));

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let backoff = opts.backoffMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${opts.apiKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new VastUnreachableError(`${method} ${path}: ${(err as Error).message}`);
      }
      const text = await res.text().catch(() => '');
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (res.ok) return parsed as T;
      if (res.status === 429 && attempt < maxAttempts) {
        const after = Number(res.headers.get('retry-after'));
        const ms = Number.isFinite(after) && after > 0 ? Math.min(after * 1000, maxBackoff) : backoff;
        backoff = Math.min(Math.round(backoff * 1.5), maxBackoff);
        await wait(ms);
        continue;
      }
      throw vastError(res.status, (parsed ?? {}) as VastErrorBody, `${method} ${path}`);
    }
  }

  return {
    /** Rentable on-demand offers, cheapest first. */
    async searchOffers(filters: Record<string, unknown> = {}, limit = 200): Promise<VastOffer[]> {
      const r = await call<{ offers?: VastOffer[] }>('POST', '/bundles/', {
        verified: { eq: true },
        rentable: { eq: true },
        rented: { eq: false },
        type: 'on-demand',
        order: [['dph_total', 'asc']],
        limit,
        ...filters,
      });
      return r?.offers ?? [];
    },
    async createInstance(
      offerId: number,
      body: { image: string; disk: number; label: string; env?: Record<string, string>; runtype?: string },
    ): Promise<number> {
      const r = await call<{ success?: boolean; new_contract?: number }>('PUT', `/asks/${offerId}/`, body);
      if (!r?.new_contract)
        throw new DriverFailureError(`no new_contract for ask ${offerId}`, 'vast.ai 未返回实例编号');
      return r.new_contract;
    },
    async instance(id: number): Promise<VastInstance> {
      const r = await call<{ instances?: VastInstance | null }>('GET', `/instances/${id}/`);
      if (!r?.instances) throw new ContainerNotFoundError(String(id), 'empty instances answer');
      return r.instances;
    },
    async instances(): Promise<VastInstance[]> {
      const r = await call<{ instances?: VastInstance[] }>('GET', '/instances/');
      return r?.instances ?? [];
    },
    async setState(id: number, state: 'running' | 'stopped'): Promise<void> {
      await call('PUT', `/instances/${id}/`, { state });
    },
    async destroy(id: number): Promise<void> {
      await call('DELETE', `/instances/${id}/`);
    },
    async currentUser(): Promise<{ id: number; username?: string; credit?: number }> {
      return call('GET', '/users/current/');
    },
  };
}
