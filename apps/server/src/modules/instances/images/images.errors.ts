import { GIB, gbOf } from '@gpu/shared/sizes';
import { createError } from '../../../platform/errors.ts';

export const imageErrors = {
  notFound: () => createError({ code: 'images.not_found', status: 404, message: '镜像不存在' }),
  unsupported: () =>
    createError({ code: 'images.unsupported', status: 409, message: '该实例所在的主机不支持保存镜像' }),
  noContainer: () =>
    createError({ code: 'images.no_container', status: 409, message: '该实例没有可保存的系统盘' }),
  countQuota: (max: number) =>
    createError({
      code: 'images.quota_count',
      status: 409,
      message: `镜像数量已达上限（${max} 个），请先删除不用的镜像`,
    }),
  sizeQuota: (maxGb: number) =>
    createError({
      code: 'images.quota_size',
      status: 409,
      message: `镜像总容量已达上限（${maxGb} GB），请先删除不用的镜像`,
    }),
  notReady: (what: string) =>
    createError({ code: 'images.not_ready', status: 409, message: `镜像${what}，暂不能使用` }),
  wrongHost: (hostName: string) =>
    createError({
      code: 'images.wrong_host',
      status: 409,
      message: `该镜像只保存在主机 ${hostName} 上，请选择该主机上的机器`,
    }),
  busy: (why: string) => createError({ code: 'images.busy', status: 409, message: `镜像${why}，暂不能删除` }),
};

/** The size quota's message once a commit came out larger than what is left. */
export const overSizeQuota = (usedBytes: number, sizeBytes: number, maxGb: number) =>
  usedBytes + sizeBytes > maxGb * GIB
    ? `镜像大小 ${gbOf(sizeBytes)} GB 超出剩余容量配额（上限 ${maxGb} GB）`
    : null;
