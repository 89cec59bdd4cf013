import {
  envelopeSchema,
  pageSchema,
  voucherAvailableQuerySchema,
  voucherListQuerySchema,
  voucherSchema,
  voucherStatsSchema,
  voucherValidateSchema,
  voucherValidationSchema,
} from '@gpu/shared';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import type { VouchersDeps } from './vouchers.deps.ts';
import { availableVouchers, listVouchers, validateVoucher, voucherStats } from './vouchers.usecases.ts';

/** The customer's vouchers (SPEC.md §7 Vouchers). */
export async function vouchersRoutes(app: AppInstance, deps: VouchersDeps) {
  const user = { preHandler: app.requireUser };
  const tags = ['vouchers'];

  app.get(
    '/api/user/vouchers',
    {
      ...user,
      schema: {
        tags,
        summary: '我的代金券（分页，可按状态筛选）',
        querystring: voucherListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(voucherSchema)) },
      },
    },
    async (request) => ok(await listVouchers(deps, signedInUser(request).id, request.query)),
  );

  app.get(
    '/api/user/vouchers/available',
    {
      ...user,
      schema: {
        tags,
        summary: '可用于某订单的代金券（page 从 0 开始）',
        querystring: voucherAvailableQuerySchema,
        response: { 200: envelopeSchema(pageSchema(voucherSchema)) },
      },
    },
    async (request) => ok(await availableVouchers(deps, signedInUser(request).id, request.query)),
  );

  app.get(
    '/api/user/vouchers/stats',
    {
      ...user,
      schema: { tags, summary: '代金券统计', response: { 200: envelopeSchema(voucherStatsSchema) } },
    },
    async (request) => ok(await voucherStats(deps, signedInUser(request).id)),
  );

  // /use answers the same check as /validate: the deduction happens when the order is created
  // with the voucherId, in the order's own transaction (decisions.md, vouchers).
  for (const path of ['/api/user/vouchers/validate', '/api/user/vouchers/use'] as const) {
    app.post(
      path,
      {
        ...user,
        // Both only check: the voucher is spent by the order that names it.
        config: { access: 'read' },
        schema: {
          tags,
          summary: '校验代金券能否用于订单（可抵扣金额或原因）',
          body: voucherValidateSchema,
          response: { 200: envelopeSchema(voucherValidationSchema) },
        },
      },
      async (request) => {
        const v = await validateVoucher(deps, signedInUser(request).id, request.body);
        return ok(v, v.valid ? '代金券可用' : (v.reason ?? '代金券不可用'));
      },
    );
  }
}
