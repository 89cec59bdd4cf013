import { createError } from '../../platform/errors.ts';

export const voucherErrors = {
  notFound: () => createError({ code: 'vouchers.not_found', status: 404, message: '代金券不存在' }),
  /** The order cannot use it: the reason names why (expired, used up, scope, minimum). */
  refused: (reason: string) => createError({ code: 'vouchers.refused', status: 422, message: reason }),
  configNotFound: () =>
    createError({ code: 'vouchers.config_not_found', status: 404, message: '代金券配置不存在' }),
  configIssued: (n: number) =>
    createError({
      code: 'vouchers.config_issued',
      status: 409,
      message: `该配置已发放${n}张代金券，不能删除，请停用或归档`,
    }),
  configDisabled: () =>
    createError({ code: 'vouchers.config_disabled', status: 422, message: '该代金券配置已停用，不能发放' }),
  configEnded: () =>
    createError({
      code: 'vouchers.config_ended',
      status: 422,
      message: '该代金券配置已过截止日期，不能发放',
    }),
  regionNotFound: () =>
    createError({ code: 'vouchers.region_not_found', status: 422, message: '地区不存在' }),
  distributionNotFound: () =>
    createError({ code: 'vouchers.distribution_not_found', status: 404, message: '发放记录不存在' }),
  badWindow: () =>
    createError({ code: 'vouchers.bad_window', status: 400, message: '注册时间范围无效：结束须晚于开始' }),
  requestReused: () =>
    createError({
      code: 'vouchers.request_reused',
      status: 409,
      message: '该发放请求编号已用于另一次发放',
    }),
};
