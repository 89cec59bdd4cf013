import { PassThrough, Readable } from 'node:stream';
import {
  billQuerySchema,
  billSchema,
  billSummarySchema,
  dailyConsumptionSchema,
  envelopeSchema,
  idSchema,
  pageSchema,
} from '@gpu/shared';
import { hoursLeft } from '@gpu/shared/money';
import { shanghaiToday } from '@gpu/shared/time';
import { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { signedInUser } from '../../auth/index.ts';
import { billsErrors } from './bills.errors.ts';
import { billsCsv } from './bills.export.ts';
import { createBillsRepository } from './bills.repository.ts';
import {
  type BillsDeps,
  billSummary,
  dailyConsumption,
  listBills,
  monitorInstances,
  toBill,
} from './bills.usecases.ts';
import { writeBillsXlsxOffThread } from './bills.xlsx-thread.ts';

export async function billsRoutes(app: AppInstance, deps: BillsDeps) {
  const me = signedInUser;
  const guard = { preHandler: app.requireUser };

  for (const url of ['/api/v2/billing/records', '/api/v2/billing/user/records']) {
    app.get(
      url,
      {
        ...guard,
        schema: {
          tags: ['billing'],
          summary: '费用明细',
          querystring: billQuerySchema,
          response: { 200: envelopeSchema(pageSchema(billSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await listBills(deps, me(request), request.query);
        return ok({ list: rows.map(toBill), total, page: request.query.page, size: request.query.size });
      },
    );
  }
  app.get(
    '/api/v2/billing/records/:id',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '账单详情',
        params: z.object({ id: idSchema('账单编号无效') }),
        response: { 200: envelopeSchema(billSchema) },
      },
    },
    async (request) => {
      const row = await createBillsRepository(deps).one(
        me(request).id,
        me(request).tenantId,
        request.params.id,
      );
      if (!row) throw billsErrors.notFound();
      return ok(toBill(row));
    },
  );
  app.get(
    '/api/v2/billing/summary',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '消费概览',
        response: { 200: envelopeSchema(billSummarySchema) },
      },
    },
    async (request) => ok(await billSummary(deps, me(request))),
  );
  app.get(
    '/api/v2/billing/daily-consumption',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '每日消费（Asia/Shanghai）',
        querystring: z.object({
          days: z.coerce.number().int().min(1, '天数须为1-366').max(366, '天数须为1-366').default(30),
        }),
        response: { 200: envelopeSchema(dailyConsumptionSchema) },
      },
    },
    async (request) => ok(await dailyConsumption(deps, me(request), request.query.days)),
  );
  app.get(
    '/api/v2/billing/export',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '导出费用明细（xlsx 或 csv）',
        querystring: billQuerySchema
          .omit({ page: true, size: true })
          .extend({ format: z.enum(['xlsx', 'csv'], { message: '格式只能是 xlsx 或 csv' }).default('xlsx') }),
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const bills = createBillsRepository(deps).stream(me(request).id, me(request).tenantId, q);
      const name = `费用明细-${shanghaiToday(deps.clock.now())}.${format}`;
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(Readable.from(billsCsv(bills)));
      // Streamed: the body is written as the rows are read; a failure midway ends the download.
      const body = new PassThrough();
      writeBillsXlsxOffThread(bills, body).catch((err) => {
        request.log.error({ err }, 'bill export failed');
        body.destroy(err as Error);
      });
      return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(body);
    },
  );
  app.get(
    '/api/v2/billing/monitor/info',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '计费监控概览',
        response: {
          200: envelopeSchema(billSummarySchema.extend({ estimatedHoursLeft: z.number().nullable() })),
        },
      },
    },
    async (request) => {
      const s = await billSummary(deps, me(request));
      return ok({
        ...s,
        estimatedHoursLeft: hoursLeft(s.available, s.hourlyBurn),
      });
    },
  );
  app.get(
    '/api/v2/billing/monitor/instances',
    {
      ...guard,
      schema: {
        tags: ['billing'],
        summary: '运行中实例的计费',
        response: {
          200: envelopeSchema(
            z.array(
              z.object({
                id: z.number().int(),
                name: z.string(),
                billingType: z.string(),
                hourlyPrice: z.number(),
                accrued: z.number(),
                charged: z.number(),
                runningSince: z.string().nullable(),
                expiresAt: z.string().nullable(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await monitorInstances(deps, me(request))),
  );
}
