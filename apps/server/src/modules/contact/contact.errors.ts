import { createError } from '../../platform/errors.ts';

export const contactErrors = {
  tooMany: () => createError({ code: 'contact.too_many', status: 429, message: '提交过于频繁，请稍后再试' }),
  productUnknown: () =>
    createError({
      code: 'contact.product_unknown',
      status: 400,
      message: '参数 product 无效：请选择咨询产品',
    }),
  notFound: () => createError({ code: 'contact.not_found', status: 404, message: '咨询记录不存在' }),
};
