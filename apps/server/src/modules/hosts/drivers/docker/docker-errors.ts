import {
  ContainerConflictError,
  ContainerNotFoundError,
  DriverFailureError,
  GpuUnavailableError,
  HostDriverError,
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
