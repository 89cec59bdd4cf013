import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VastInstance, VastOffer } from './vastai-api.ts';
import { VASTAI_IMAGES } from './vastai-images.ts';

/**
 * A local stand-in for vast.ai's REST API, built from its documented requests and answers,
 * for tests and the browser tests (never the internet). Offers are searched with POST
 * /bundles/, rented with PUT /asks/{id}/ (an offer rents once: the next PUT gets 404
 * no_such_ask), instances go created → loading → running (`stepMs` per step), stop to exited,
 * and are gone (410) once destroyed. `failNext(429)` makes the next calls answer 429.
 */
export interface FakeVast {
  url: string;
  apiKey: string;
  offers: VastOffer[];
  addOffer(over?: Partial<VastOffer>): VastOffer;
  /** An instance made outside the platform (another tool, the vast.ai console). */
  addForeignInstance(): number;
  /** The next `times` calls answer this status (429 without Retry-After, 500…). */
  failNext(status: number, times?: number): void;
  /** Requests seen, for assertions on what was sent. */
  requests: { method: string; path: string; body: unknown }[];
  instance(id: number): VastInstance | undefined;
  close(): Promise<void>;
}

interface FakeInstance {
  id: number;
  offer: VastOffer;
  label: string;
  image: string;
  disk: number;
  intended: 'running' | 'stopped';
  /** When the instance last started its way to running (ms). */
  since: number;
  /** Starts after the first go through loading only. */
  firstBoot: boolean;
  containerPorts: number[];
  destroyed: boolean;
  startDate: number;
}

/** Images the fake's registry has: the platform's overseas catalogue. */
export const FAKE_VAST_IMAGES: string[] = VASTAI_IMAGES.map((i) => i.imageUrl);

const DEFAULT_OFFERS: Omit<VastOffer, 'id'>[] = [
  { gpu_name: 'RTX 4090', num_gpus: 1, gpu_ram: 24_564, dph_total: 0.35 },
  { gpu_name: 'RTX 4090', num_gpus: 2, gpu_ram: 24_564, dph_total: 0.7 },
  { gpu_name: 'H100 SXM', num_gpus: 1, gpu_ram: 81_559, dph_total: 2.1 },
  { gpu_name: 'B200', num_gpus: 8, gpu_ram: 183_359, dph_total: 32.0 },
];

function matches(offer: VastOffer, filters: Record<string, unknown>): boolean {
  for (const [key, cond] of Object.entries(filters)) {
    if (!cond || typeof cond !== 'object' || Array.isArray(cond)) continue;
    const v = (offer as unknown as Record<string, unknown>)[key];
    if (v === undefined) continue;
    for (const [op, want] of Object.entries(cond as Record<string, unknown>)) {
      if (op === 'eq' && v !== want) return false;
      if (op === 'neq' && v === want) return false;
      if (op === 'gte' && !((v as number) >= (want as number))) return false;
      if (op === 'lte' && !((v as number) <= (want as number))) return false;
      if (op === 'in' && Array.isArray(want) && !want.includes(v)) return false;
    }
  }
  return true;
}

export async function startFakeVast(
  opts: { apiKey?: string; stepMs?: number; offers?: Omit<VastOffer, 'id'>[]; port?: number } = {},
): Promise<FakeVast> {
  const apiKey = opts.apiKey ?? 'fake-vast-key';
  const stepMs = opts.stepMs ?? 200;
  let nextOffer = 30_000_000;
  let nextInstance = 9_000_000;
  const offers: VastOffer[] = [];
  const instances = new Map<number, FakeInstance>();
  const requests: FakeVast['requests'] = [];
  const failures: number[] = [];

  const addOffer = (over: Partial<VastOffer> = {}): VastOffer => {
    nextOffer += 1;
    const offer: VastOffer = {
      id: nextOffer,
      gpu_name: 'RTX 4090',
      num_gpus: 2,
      gpu_ram: 24_564,
      cpu_name: 'AMD EPYC 7B13',
      cpu_cores_effective: 16,
      cpu_ram: 128_000,
      disk_space: 200,
      dph_total: 0.7,
      geolocation: 'Texas, US',
      cuda_max_good: 12.4,
      driver_version: '550.90.07',
      reliability2: 0.995,
      rentable: true,
      ...over,
    };
    offers.push(offer);
    return offer;
  };
  for (const o of opts.offers ?? DEFAULT_OFFERS) addOffer(o);

  const actual = (i: FakeInstance): string => {
    if (i.intended === 'stopped') return 'exited';
    const t = Date.now() - i.since;
    if (i.firstBoot && t < stepMs) return 'created';
    if (t < (i.firstBoot ? 2 : 1) * stepMs) return 'loading';
    return 'running';
  };
  const view = (i: FakeInstance): VastInstance => {
    const status = actual(i);
    const ports: VastInstance['ports'] = {};
    i.containerPorts.forEach((p, k) => {
      ports[`${p}/tcp`] = [{ HostIp: '0.0.0.0', HostPort: String(40_000 + ((i.id * 7 + k) % 20_000)) }];
    });
    return {
      id: i.id,
      label: i.label,
      image_uuid: i.image,
      actual_status: status,
      intended_status: i.intended,
      status_msg: status === 'loading' ? 'Pulling image' : null,
      num_gpus: i.offer.num_gpus,
      gpu_name: i.offer.gpu_name,
      ssh_host: `ssh${i.id % 10}.fake-vast.test`,
      ssh_port: 20_000 + (i.id % 10_000),
      public_ipaddr: '203.0.113.10',
      ports,
      start_date: i.startDate,
      dph_total: i.offer.dph_total,
    };
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, error: string, msg: string) =>
    send(res, status, { success: false, error, msg });

  const readBody = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return Symbol.for('invalid-json');
    }
  };

  const live = (id: number) => instances.get(id);

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/api\/v0/, '');
    const body = await readBody(req);
    requests.push({ method: req.method ?? '', path, body });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return fail(res, 401, 'auth_error', 'Invalid user key');
    }
    const injected = failures.shift();
    if (injected) return fail(res, injected, injected === 429 ? 'rate_limited' : 'server_error', 'injected');
    if (typeof body === 'symbol') return fail(res, 400, 'invalid_args', 'invalid JSON');
    const b = (body ?? {}) as Record<string, unknown>;
    const ask = path.match(/^\/asks\/(\d+)\/$/);
    const one = path.match(/^\/instances\/(\d+)\/$/);

    // Not vast.ai's: lets a test in another process (the browser tests) put an offer on sale.
    if (req.method === 'POST' && path === '/__fake/offers')
      return send(res, 200, addOffer(b as Partial<VastOffer>));
    if (req.method === 'GET' && path === '/users/current/') {
      return send(res, 200, { id: 4242, username: 'fake', credit: 100.5 });
    }
    if (req.method === 'POST' && path === '/bundles/') {
      const limit = typeof b.limit === 'number' ? b.limit : 64;
      const found = offers.filter((o) => o.rentable !== false && matches(o, b));
      found.sort((x, y) => x.dph_total - y.dph_total);
      return send(res, 200, { offers: found.slice(0, limit) });
    }
    if (req.method === 'PUT' && ask) {
      const offer = offers.find((o) => o.id === Number(ask[1]) && o.rentable !== false);
      if (!offer) return fail(res, 404, 'no_such_ask', `Instance type by id ${ask[1]} is not available.`);
      if (typeof b.image !== 'string' || !b.image) return fail(res, 400, 'invalid_args', 'image is required');
      if (!FAKE_VAST_IMAGES.includes(b.image)) {
        return fail(res, 400, 'invalid_args', `image ${b.image} not found in registry`);
      }
      const disk = b.disk === undefined ? 8 : b.disk;
      if (typeof disk !== 'number' || disk <= 0 || disk > (offer.disk_space ?? 100)) {
        return fail(res, 400, 'invalid_args', 'disk must be a positive number within the offer');
      }
      offer.rentable = false;
      nextInstance += 1;
      const env = (b.env ?? {}) as Record<string, string>;
      const containerPorts = [
        22,
        ...Object.keys(env)
          .map((k) => k.match(/^-p (\d+):\d+$/)?.[1])
          .filter((p): p is string => p !== undefined)
          .map(Number)
          .filter((p) => p !== 22),
      ];
      instances.set(nextInstance, {
        id: nextInstance,
        offer,
        label: typeof b.label === 'string' ? b.label : '',
        image: b.image,
        disk,
        intended: b.target_state === 'stopped' ? 'stopped' : 'running',
        since: Date.now(),
        firstBoot: true,
        containerPorts,
        destroyed: false,
        startDate: Date.now() / 1000,
      });
      return send(res, 200, { success: true, new_contract: nextInstance });
    }
    if (req.method === 'GET' && path === '/instances/') {
      return send(res, 200, {
        instances: [...instances.values()].filter((i) => !i.destroyed).map(view),
      });
    }
    if (one) {
      const inst = live(Number(one[1]));
      if (!inst) return fail(res, 404, 'no_such_instance', `Instance ${one[1]} not found.`);
      if (inst.destroyed) return fail(res, 410, 'instance_destroyed', `Instance ${one[1]} was destroyed.`);
      if (req.method === 'GET') return send(res, 200, { instances: view(inst) });
      if (req.method === 'DELETE') {
        inst.destroyed = true;
        return send(res, 200, { success: true });
      }
      if (req.method === 'PUT') {
        if (b.state !== 'running' && b.state !== 'stopped') {
          return fail(res, 400, 'invalid_args', 'state must be running or stopped');
        }
        if (b.state === 'running' && inst.intended === 'stopped') {
          inst.since = Date.now();
          inst.firstBoot = false;
        }
        inst.intended = b.state;
        return send(res, 200, { success: true });
      }
    }
    return fail(res, 404, 'not_found', `no route ${req.method} ${path}`);
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v0`,
    apiKey,
    offers,
    addOffer,
    addForeignInstance() {
      nextInstance += 1;
      const offer = addOffer({ rentable: false });
      instances.set(nextInstance, {
        id: nextInstance,
        offer,
        label: 'my-own-box',
        image: FAKE_VAST_IMAGES[0] as string,
        disk: 10,
        intended: 'running',
        since: Date.now(),
        firstBoot: true,
        containerPorts: [22],
        destroyed: false,
        startDate: Date.now() / 1000,
      });
      return nextInstance;
    },
    failNext(status, times = 1) {
      for (let k = 0; k < times; k++) failures.push(status);
    },
    requests,
    instance: (id) => {
      const i = instances.get(id);
      return i && !i.destroyed ? view(i) : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
