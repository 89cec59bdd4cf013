import { createError } from '../../platform/errors.ts';

export const operationsErrors = {
  userNotFound: () => createError({ code: 'operations.user_not_found', status: 404, message: '用户不存在' }),
  instanceNotFound: () => createError({ code: 'instances.not_found', status: 404, message: '实例不存在' }),
  noticeNotFound: () =>
    createError({ code: 'operations.notice_not_found', status: 404, message: '通知不存在' }),
};
