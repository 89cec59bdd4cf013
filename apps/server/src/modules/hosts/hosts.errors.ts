import { type AppError, createError } from '../../platform/errors.ts';
import type { HostDriverError } from './drivers/driver-errors.ts';

export const hostErrors = {
  notFound: () => createError({ code: 'hosts.not_found', status: 404, message: '主机不存在' }),
  nameTaken: (name: string) =>
    createError({ code: 'hosts.name_taken', status: 409, message: `主机名「${name}」已存在` }),
  regionNotFound: () =>
    createError({ code: 'hosts.region_not_found', status: 400, message: '参数 regionId 无效：地区不存在' }),
  invalidSettings: (field: string, message: string) =>
    createError({
      code: 'hosts.invalid_settings',
      status: 400,
      message: `参数 settings.${field} 无效：${message}`,
    }),
  targetNotAllowed: (field: 'host' | 'socketPath', reason: 'not_allowed' | 'unresolvable') =>
    createError({
      code: reason === 'unresolvable' ? 'hosts.target_unresolvable' : 'hosts.target_not_allowed',
      status: 400,
      message:
        reason === 'unresolvable'
          ? `参数 settings.${field} 无效：主机地址无法解析`
          : field === 'socketPath'
            ? `参数 settings.socketPath 无效：该 Docker 套接字不在允许的主机网络内（HOST_NETWORKS 需列出 unix:路径）`
            : `参数 settings.host 无效：该地址（或其解析到的 IP）不在允许的主机网络内（HOST_NETWORKS）`,
    }),
  badPortRange: () =>
    createError({
      code: 'hosts.bad_port_range',
      status: 400,
      message: '参数 portRangeEnd 无效：端口范围终点不能小于起点',
    }),
  skuNeedsPrice: () =>
    createError({
      code: 'hosts.sku_needs_price',
      status: 400,
      message: '参数 sku.hourlyPrice 无效：请填写每小时价格',
    }),
  skuNeedsGpuModel: () =>
    createError({
      code: 'hosts.sku_needs_gpu',
      status: 400,
      message: '参数 sku 无效：请先在 settings.gpus 中声明 GPU 型号，或测试连接获取 GPU 信息后再设置价格',
    }),
  inUse: () =>
    createError({
      code: 'hosts.in_use',
      status: 409,
      message: '主机上仍有实例占用 GPU 或端口，请先释放实例再删除',
    }),
  hasHistory: () =>
    createError({
      code: 'hosts.has_history',
      status: 409,
      message: '主机上有历史实例记录，不能删除；如需下线请将主机状态设为停用',
    }),
  portsInUse: (ports: number[]) =>
    createError({
      code: 'hosts.ports_in_use',
      status: 409,
      message: `端口 ${ports.slice(0, 5).join('、')}${ports.length > 5 ? ' 等' : ''} 仍被实例占用，不能缩小端口范围`,
    }),
  notActive: () =>
    createError({ code: 'hosts.not_active', status: 409, message: '该主机已停用或正在维护，暂不能分配资源' }),
  insufficientGpus: (wanted: number, free: number) =>
    createError({
      code: 'hosts.insufficient_gpus',
      status: 409,
      message: `该主机空闲 GPU 不足：需要 ${wanted} 张，当前空闲 ${free} 张`,
    }),
  insufficientPorts: () =>
    createError({
      code: 'hosts.insufficient_ports',
      status: 409,
      message: '该主机端口已分配完，请联系管理员扩充端口范围',
    }),
  noLocalHost: () =>
    createError({ code: 'hosts.no_local_host', status: 404, message: '没有可用的本地 GPU 主机' }),
  instanceNotFound: () => createError({ code: 'instances.not_found', status: 404, message: '实例不存在' }),
};

const DRIVER_ERRORS: Record<
  HostDriverError['kind'],
  { status: number; message: (e: HostDriverError) => string }
> = {
  HOST_UNREACHABLE: { status: 503, message: () => 'GPU 主机暂时无法连接，请稍后重试' },
  IMAGE_NOT_FOUND: { status: 422, message: (e) => `${e.message}，请联系管理员` },
  PORT_IN_USE: { status: 409, message: (e) => `${e.message}，请稍后重试` },
  CONTAINER_NOT_FOUND: { status: 404, message: () => '容器不存在或已被删除' },
  CONTAINER_CONFLICT: { status: 409, message: () => '同名容器已存在' },
  GPU_UNAVAILABLE: { status: 409, message: () => '主机上没有所需的 GPU，请稍后重试' },
  NOT_SUPPORTED: { status: 422, message: (e) => e.message },
  DRIVER_FAILURE: {
    status: 502,
    message: (e) => (e.message === 'GPU 主机操作失败' ? 'GPU 主机操作失败，请稍后重试' : e.message),
  },
};

/** A typed driver error as the AppError users see; the driver's detail stays in the logs. */
export function driverErrorToAppError(e: HostDriverError): AppError {
  const m = DRIVER_ERRORS[e.kind];
  return createError({
    code: `hosts.${e.kind.toLowerCase()}`,
    status: m.status,
    message: m.message(e),
    details: e.detail,
  });
}
