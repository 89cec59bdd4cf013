import { createError } from '../../platform/errors.ts';
import { IDEMPOTENCY_HEADER } from './idempotency.models.ts';

export const idempotencyErrors = {
  badKey: () =>
    createError({
      code: 'idempotency.bad_key',
      status: 400,
      message: `请求头 ${IDEMPOTENCY_HEADER} 无效：须为8到128位字母、数字、下划线或短横线`,
    }),
  inFlight: () =>
    createError({ code: 'idempotency.in_flight', status: 409, message: '请求正在处理中，请稍后重试' }),
  bodyMismatch: () =>
    createError({
      code: 'idempotency.body_mismatch',
      status: 422,
      message: `该${IDEMPOTENCY_HEADER}已用于内容不同的请求，请勿修改后重复提交；新的操作请使用新的${IDEMPOTENCY_HEADER}`,
    }),
};
