import { ORIGINAL_GPUS_TAKEN_MESSAGE } from '@gpu/shared';
import { INSTANCE_STATUS_NAMES } from '@gpu/shared/labels';
import { createError } from '../../platform/errors.ts';

const STATUS_NAMES: Record<string, string> = INSTANCE_STATUS_NAMES;

export const instanceErrors = {
  notFound: () => createError({ code: 'instances.not_found', status: 404, message: '实例不存在' }),
  badState: (status: string, action: string) =>
    createError({
      code: 'instances.bad_state',
      status: 409,
      message: `实例当前${STATUS_NAMES[status] ?? status}，无法${action}`,
    }),
  imageUnavailable: () =>
    createError({
      code: 'instances.image_unavailable',
      status: 422,
      message: '所选镜像不存在或不适用于该GPU',
    }),
  insufficientForHour: (need: string) =>
    createError({
      code: 'instances.insufficient_balance',
      status: 422,
      message: `余额不足：按量计费需至少可支付1小时费用（${need}元），请先充值`,
    }),
  gpusTaken: () =>
    createError({
      code: 'instances.gpus_taken',
      status: 409,
      message: '该主机空闲GPU不足，暂时无法开机，请稍后再试',
    }),
  originalGpusTaken: () =>
    createError({
      code: 'instances.original_gpus_taken',
      status: 409,
      message: ORIGINAL_GPUS_TAKEN_MESSAGE,
    }),
  portsNeedPowerOff: (status: string) =>
    createError({
      code: 'instances.bad_state',
      status: 409,
      message: `实例当前${STATUS_NAMES[status] ?? status}，无法修改端口：请先关机再修改`,
    }),
  extraPortsUnsupported: () =>
    createError({
      code: 'instances.extra_ports_unsupported',
      status: 422,
      message: '参数 extraPorts（额外端口）无效：该主机由服务商分配端口，不支持额外端口',
    }),
  createFailed: (detail: string) =>
    createError({ code: 'instances.create_failed', status: 502, message: `容器创建失败：${detail}` }),
  driverFailed: (action: string, detail: string) =>
    createError({ code: 'instances.driver_failed', status: 502, message: `${action}失败：${detail}` }),
  resetUnsupported: () =>
    createError({
      code: 'instances.reset_unsupported',
      status: 409,
      message: '该实例所在的主机不支持重置系统或更换镜像',
    }),
  /** Reset to an instance's own image, a saved one of the user's that was deleted since. */
  originalImageDeleted: () =>
    createError({
      code: 'instances.image_deleted',
      status: 409,
      message: '原镜像已删除，无法重置系统，请用“更换镜像”选择其他镜像',
    }),
  cloneUnsupported: () =>
    createError({
      code: 'instances.clone_unsupported',
      status: 409,
      message: '该实例所在的主机不支持克隆实例',
    }),
  beingCloned: (action: string) =>
    createError({
      code: 'instances.being_cloned',
      status: 409,
      message: `实例正在被克隆（复制系统盘与数据盘），请等克隆完成后再${action}`,
    }),
  cloneNoFreeGpus: (message: string) =>
    createError({ code: 'instances.clone_no_gpus', status: 409, message }),
  /** Another host needs the registry the disks travel through (IMAGE_REGISTRY). */
  cloneOtherHostNeedsRegistry: () =>
    createError({
      code: 'instances.clone_other_host',
      status: 409,
      message: '平台未配置镜像仓库，克隆只能放在源实例所在的主机上，请选择源实例的机器',
    }),
  cloneTargetMismatch: () =>
    createError({
      code: 'instances.clone_target',
      status: 422,
      message: '克隆的目标机器须与源实例在同一地区、同一 GPU 型号',
    }),
  cloneNeedsPowerOff: (status: string) =>
    createError({
      code: 'instances.bad_state',
      status: 409,
      message: `实例当前${STATUS_NAMES[status] ?? status}，无法克隆：请先关机再克隆`,
    }),
  noGpuPackage: () =>
    createError({
      code: 'instances.nogpu_package',
      status: 422,
      message: '无卡模式开机仅适用于按量计费实例：包日/包周/包月实例的GPU在包期内一直保留，直接开机即可',
    }),
  noGpuUnsupported: () =>
    createError({
      code: 'instances.nogpu_unsupported',
      status: 422,
      message: '该实例所在的主机不支持无卡模式开机',
    }),
  notPackage: () =>
    createError({ code: 'instances.not_package', status: 422, message: '按量计费实例无需续费' }),
  renewalTooLong: (max: number, unit: string) =>
    createError({
      code: 'instances.renewal_too_long',
      status: 400,
      message: `参数 duration 无效：续费时长最多为${max}${unit}`,
    }),
};
