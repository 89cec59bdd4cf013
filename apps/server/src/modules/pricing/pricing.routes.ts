import {
  calculatePriceRequestSchema,
  calculatePriceResponseSchema,
  envelopeSchema,
  packagePricingSchema,
  unitsToYuan,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { PricingDeps } from './pricing.deps.ts';
import type { PackagePriceRow } from './pricing.repository.ts';
import { listPackagePrices, quoteWithVoucher } from './pricing.usecases.ts';

export async function pricingRoutes(app: AppInstance, { db, now, discounts }: PricingDeps) {
  const toPricing = (p: PackagePriceRow) => ({
    gpuType: p.gpuType,
    regionId: p.regionId,
    platform: p.platform,
    dailyPrice: unitsToYuan(p.dailyPrice),
    weeklyPrice: unitsToYuan(p.weeklyPrice),
    monthlyPrice: unitsToYuan(p.monthlyPrice),
  });

  app.get(
    '/api/v2/package-billing/pricing/all',
    {
      schema: {
        tags: ['pricing'],
        summary: '全部包期价格配置',
        response: { 200: envelopeSchema(z.array(packagePricingSchema)) },
      },
    },
    async () => ok((await listPackagePrices({ db })).map(toPricing)),
  );
  app.get(
    '/api/v2/package-billing/pricing/by-gpu',
    {
      schema: {
        tags: ['pricing'],
        summary: '某 GPU 型号的包期价格',
        querystring: z.object({ gpuType: z.string().trim().min(1, '请提供GPU型号').max(64) }),
        response: { 200: envelopeSchema(z.array(packagePricingSchema)) },
      },
    },
    async (request) => ok((await listPackagePrices({ db }, request.query.gpuType)).map(toPricing)),
  );
  app.post(
    '/api/v2/package-billing/calculate-price',
    {
      schema: {
        tags: ['pricing'],
        summary: '计算订单价格（原价、折扣、代金券、应付）',
        body: calculatePriceRequestSchema,
        response: { 200: envelopeSchema(calculatePriceResponseSchema) },
      },
    },
    async (request, reply) => {
      const { voucherId, ...order } = request.body;
      // The price is public; a voucher is the user's own, so naming one needs the user's token.
      if (voucherId !== undefined) await app.requireUser(request, reply);
      const rules = await discounts.rulesFor(request.tenant.id);
      const q = await quoteWithVoucher(
        { db, now, rules },
        request.tenant,
        order,
        voucherId !== undefined && request.user ? { userId: request.user.id, voucherId } : null,
      );
      return ok({
        billingType: q.billingType,
        duration: q.billingType === 'hourly' ? 1 : q.duration,
        gpuAmount: q.gpuAmount,
        unitPrice: unitsToYuan(q.unitPrice),
        discountedUnitPrice: unitsToYuan(q.discountedUnitPrice),
        originalAmount: unitsToYuan(q.originalAmount),
        discountAmount: unitsToYuan(q.discountAmount),
        voucherDeduction: unitsToYuan(q.voucherDeduction),
        payableAmount: unitsToYuan(q.payableAmount),
        discountRate: q.discount ? q.discount.rateBp / 10_000 : 1,
        discountEndTime: q.discount?.endsAt.toISOString() ?? null,
      });
    },
  );
}
