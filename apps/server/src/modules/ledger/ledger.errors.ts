import { createError } from '../../platform/errors.ts';

export const billingErrors = {
  insufficientBalance: () =>
    createError({ code: 'billing.insufficient_balance', status: 422, message: '账户余额不足，请先充值' }),
  insufficientFrozen: () =>
    createError({ code: 'billing.insufficient_frozen', status: 422, message: '冻结金额不足' }),
  accountMissing: () => createError({ code: 'billing.account_missing', status: 404, message: '账户不存在' }),
  userMissing: () => createError({ code: 'billing.user_missing', status: 404, message: '用户不存在' }),
};
