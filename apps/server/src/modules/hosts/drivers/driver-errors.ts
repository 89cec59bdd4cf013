/** What went wrong in a driver call, independent of the driver (DESIGN §7). */
export type DriverErrorKind =
  | 'HOST_UNREACHABLE'
  | 'IMAGE_NOT_FOUND'
  | 'PORT_IN_USE'
  | 'CONTAINER_NOT_FOUND'
  | 'CONTAINER_CONFLICT'
  | 'GPU_UNAVAILABLE'
  | 'NOT_SUPPORTED'
  | 'DRIVER_FAILURE';

/** Base of the typed driver errors; `detail` is for logs, never shown to users. */
export class HostDriverError extends Error {
  readonly kind: DriverErrorKind;
  readonly detail?: string;
  constructor(kind: DriverErrorKind, message: string, detail?: string) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.detail = detail;
  }
}

export class HostUnreachableError extends HostDriverError {
  constructor(detail?: string) {
    super('HOST_UNREACHABLE', 'GPU 主机无法连接', detail);
  }
}

/** HOST_NETWORKS does not allow the host's address or socket: nothing was sent to it. */
export class HostNotAllowedError extends HostDriverError {
  constructor(detail?: string) {
    super('HOST_UNREACHABLE', '主机地址不在允许的主机网络内（HOST_NETWORKS），未连接', detail);
  }
}

export class ImageNotFoundError extends HostDriverError {
  readonly image: string;
  constructor(image: string, detail?: string) {
    super('IMAGE_NOT_FOUND', `主机上没有镜像 ${image}`, detail);
    this.image = image;
  }
}

export class PortInUseError extends HostDriverError {
  readonly port: number | null;
  constructor(port: number | null, detail?: string) {
    super('PORT_IN_USE', port ? `主机端口 ${port} 已被占用` : '主机端口已被占用', detail);
    this.port = port;
  }
}

export class ContainerNotFoundError extends HostDriverError {
  readonly containerId: string;
  constructor(containerId: string, detail?: string) {
    super('CONTAINER_NOT_FOUND', '容器不存在', detail);
    this.containerId = containerId;
  }
}

export class ContainerConflictError extends HostDriverError {
  constructor(detail?: string) {
    super('CONTAINER_CONFLICT', '同名容器已存在', detail);
  }
}

export class GpuUnavailableError extends HostDriverError {
  constructor(detail?: string) {
    super('GPU_UNAVAILABLE', '主机上没有所需的 GPU', detail);
  }
}

export class DriverNotSupportedError extends HostDriverError {
  constructor(driver: string) {
    super('NOT_SUPPORTED', `暂不支持 ${driver} 类型的主机`, driver);
  }
}

/** The driver's kind cannot do this (its capabilities say so; usecases ask them first). */
export class OperationNotSupportedError extends HostDriverError {
  constructor(message: string, detail?: string) {
    super('NOT_SUPPORTED', message, detail);
  }
}

export class DriverFailureError extends HostDriverError {
  constructor(detail?: string, message = 'GPU 主机操作失败') {
    super('DRIVER_FAILURE', message, detail);
  }
}

export const isDriverError = (e: unknown, kind?: DriverErrorKind): e is HostDriverError =>
  e instanceof HostDriverError && (kind === undefined || e.kind === kind);
