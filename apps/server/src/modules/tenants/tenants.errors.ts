import { createError } from '../../platform/errors.ts';

export const tenantErrors = {
  unknownCode: (code: string) =>
    createError({ code: 'tenants.unknown_code', status: 404, message: `租户「${code}」不存在` }),
};
