import {
  ContainerConflictError,
  ContainerNotFoundError,
  DriverFailureError,
  GpuUnavailableError,
  HostDriverError,
  HostNotAllowedError,
  HostUnreachableError,
  ImageNotFoundError,
  PortInUseError,
} from '../driver-errors.ts';

interface EngineError {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EACCES',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The engine's own words: its JSON message, else the modem's error text. */
export const engineMessage = (err: unknown): string => {
  const e = err as EngineError;
  return (e?.json?.message ?? e?.message ?? String(err)).trim();
};

const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/**
 * Why a connection test failed, as one fixed zh-CN reason: never the target's own words (its
 * body, banner or error text), which would make test-connection a probe of whatever answers
 * there. The detail goes to the server log.
 */
export function probeFailureReason(err: unknown): string {
  if (err instanceof HostNotAllowedError) return err.message;
  const e = err as EngineError & { level?: string };
  const code = e?.code ?? '';
  const text = String(e?.message ?? '');
  if (e?.statusCode !== undefined) return '目标不是可用的 Docker 引擎，或拒绝了请求';
  if (code === 'ECONNREFUSED') return '连接被拒绝：目标端口没有服务在监听';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '主机地址无法解析';
  if (code === 'ETIMEDOUT' || e?.level === 'client-timeout' || /timed? ?out/i.test(text)) return '连接超时';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return '网络不可达，无法连接主机';
  if (code === 'ENOENT' || code === 'EACCES') return '无法打开 Docker 套接字（不存在或没有权限）';
  if (TLS_CODES.has(code) || /^ERR_(TLS|SSL)_/.test(code) || /certificate|ssl|tls/i.test(text))
    return 'TLS 握手或证书校验失败';
  if (e?.level === 'client-authentication') return 'SSH 认证失败';
  if (e?.level?.startsWith('client-') || /handshake/i.test(text)) return 'SSH 连接失败';
  if (code.startsWith('HPE_')) return '目标不是可用的 Docker 引擎，或拒绝了请求';
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(text)) return '连接被对方中断';
  return '无法连接主机';
}

/** The engine refused the StorageOpt size: the storage driver or file system cannot enforce it. */
export const isStorageOptUnsupported = (err: unknown): boolean => {
  const e = err as EngineError;
  return (
    e?.statusCode !== undefined &&
    e.statusCode >= 400 &&
    /storage[- ]?opt|quota|unknown option size|size option/i.test(engineMessage(err))
  );
};

/** Docker's port clash texts: `Bind for 0.0.0.0:30001 failed: port is already allocated`,
 *  `listen tcp4 127.0.0.1:30001: bind: address already in use`. */
function clashedPort(message: string): number | null {
  const m = /(?:Bind for|listen tcp[46]?) [^\s]*:(\d+)/i.exec(message);
  return m ? Number(m[1]) : null;
}

/** Any failure of a dockerode call as one of the typed driver errors. */
export function mapDockerError(
  err: unknown,
  ctx: { op: string; image?: string; containerId?: string },
): HostDriverError {
  if (err instanceof HostDriverError) return err;
  const e = err as EngineError;
  const message = engineMessage(err);
  const detail = `${ctx.op}: ${message}`;
  if (e?.statusCode === undefined) {
    if (
      (e?.code && CONNECTION_CODES.has(e.code)) ||
      /timeout|socket hang up|connect|handshake/i.test(message)
    ) {
      return new HostUnreachableError(detail);
    }
    return new DriverFailureError(detail);
  }
  if (e.statusCode === 404) {
    if (/no such image/i.test(message) || (ctx.op === 'create' && !/no such container/i.test(message))) {
      return new ImageNotFoundError(ctx.image ?? '', detail);
    }
    return new ContainerNotFoundError(ctx.containerId ?? '', detail);
  }
  if (/port is already allocated|address already in use/i.test(message)) {
    return new PortInUseError(clashedPort(message), detail);
  }
  if (e.statusCode === 409 && ctx.op === 'create') return new ContainerConflictError(detail);
  if (/could not select device driver|nvidia-container|unknown or invalid runtime/i.test(message)) {
    return new GpuUnavailableError(detail);
  }
  return new DriverFailureError(detail);
}
