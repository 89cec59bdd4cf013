import { discountResultSchema, envelopeSchema, idSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { DiscountsDeps } from './discounts.deps.ts';

const price = z.coerce
  .number({ message: '价格必须是数字' })
  .min(0, '价格不能为负')
  .max(1_000_000, '价格过大');
const calcQuery = z.object({
  originalPrice: price,
  regionId: idSchema('地区编号无效'),
  gpuType: z.string().trim().min(1, '请提供GPU型号').max(64),
});

const activeDiscountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  regionId: z.number().int().nullable(),
  gpuType: z.string().nullable(),
  discountRate: z.number(),
  startTime: z.string(),
  endTime: z.string(),
});

export async function discountsRoutes(app: AppInstance, { service: discounts }: DiscountsDeps) {
  app.get(
    '/api/user/discounts',
    {
      schema: {
        tags: ['discounts'],
        summary: '进行中的折扣活动',
        response: { 200: envelopeSchema(z.array(activeDiscountSchema)) },
      },
    },
    async (request) => {
      const rules = await discounts.active(request.tenant.id);
      return ok(
        rules.map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          regionId: r.regionId,
          gpuType: r.gpuModel,
          discountRate: r.rateBp / 10_000,
          startTime: r.startsAt.toISOString(),
          endTime: r.endsAt.toISOString(),
        })),
      );
    },
  );

  app.get(
    '/api/user/discounts/calculate',
    {
      schema: {
        tags: ['discounts'],
        summary: '计算折扣价',
        querystring: calcQuery,
        response: { 200: envelopeSchema(discountResultSchema) },
      },
    },
    async (request) => ok(await discounts.calculate(request.tenant.id, request.query)),
  );

  app.post(
    '/api/user/discounts/calculate/batch',
    {
      schema: {
        tags: ['discounts'],
        summary: '批量计算折扣价（按 gpuId 返回）',
        body: z
          .array(calcQuery.extend({ gpuId: z.union([z.string().min(1).max(64), z.number().int()]) }))
          .max(500, '一次最多计算500项'),
        response: { 200: envelopeSchema(z.record(z.string(), discountResultSchema)) },
      },
    },
    async (request) => {
      const out: Record<string, z.infer<typeof discountResultSchema>> = {};
      for (const item of request.body)
        out[String(item.gpuId)] = await discounts.calculate(request.tenant.id, item);
      return ok(out);
    },
  );
}
