import { createError } from '../../platform/errors.ts';

export const pricingErrors = {
  machineNotFound: () =>
    createError({ code: 'pricing.machine_not_found', status: 404, message: '未找到指定的GPU资源' }),
  notEnoughIdle: (idle: number) =>
    createError({
      code: 'pricing.not_enough_idle',
      status: 422,
      message: idle > 0 ? `该机器当前仅剩${idle}张空闲GPU，请减少GPU数量` : '该机器当前没有空闲GPU',
    }),
  voucherUnavailable: () =>
    createError({
      code: 'pricing.voucher_unavailable',
      status: 422,
      message: '代金券不存在或不可用于此订单',
    }),
};
