import { ACCESS_TOKEN_SCOPE_LABELS, ACCESS_TOKENS_PER_USER, type AccessTokenScope } from '@gpu/shared';
import { createError } from '../../../platform/errors.ts';

export const accessTokenErrors = {
  /** Unknown, expired or revoked, or its owner disabled: the same answer for each. */
  invalid: () =>
    createError({ code: 'common.unauthorized', status: 401, message: '访问令牌无效、已过期或已撤销' }),
  scope: (scope: AccessTokenScope) =>
    createError({
      code: 'auth.token_scope',
      status: 403,
      message: `该访问令牌没有「${ACCESS_TOKEN_SCOPE_LABELS[scope]}」权限，请在账号安全中创建带此权限的令牌`,
    }),
  notAllowed: () =>
    createError({
      code: 'auth.token_not_allowed',
      status: 403,
      message: '访问令牌不能用于此操作，请登录控制台后操作',
    }),
  limit: () =>
    createError({
      code: 'auth.token_limit',
      status: 409,
      message: `最多可持有${ACCESS_TOKENS_PER_USER}个有效的访问令牌，请先撤销不用的令牌`,
    }),
  notFound: () => createError({ code: 'auth.token_not_found', status: 404, message: '访问令牌不存在' }),
};
