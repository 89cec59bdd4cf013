import { WEBHOOKS_PER_USER } from '@gpu/shared/notifications';
import { commonErrors, createError } from '../../platform/errors.ts';

export const noticesErrors = {
  webhookNotFound: () => commonErrors.notFound('回调地址不存在'),
  webhooksFull: () =>
    createError({
      code: 'notices.webhooks_full',
      status: 422,
      message: `最多添加 ${WEBHOOKS_PER_USER} 个回调地址`,
    }),
};
