import { commonErrors } from '../../../platform/errors.ts';

export const billsErrors = {
  notFound: () => commonErrors.notFound('账单不存在'),
};
