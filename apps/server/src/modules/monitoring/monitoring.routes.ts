import { envelopeSchema, idSchema } from '@gpu/shared';
import {
  gpuSparklinesSchema,
  hostMetricsSeriesSchema,
  metricsQuerySchema,
  metricsSeriesSchema,
} from '@gpu/shared/monitoring';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { gpuSparklines, hostMetrics, instanceMetrics } from './charts.usecases.ts';
import type { MonitoringDeps } from './monitoring.deps.ts';

/** The console's charts and sparklines, and the back office's host charts (issue 31). */
export async function monitoringRoutes(app: AppInstance, deps: MonitoringDeps) {
  app.get(
    '/api/gpu/instance/:uuid/metrics',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['monitoring'],
        summary: '实例监控（GPU、CPU、内存、磁盘）',
        params: z.object({ uuid: idSchema('实例编号无效') }),
        querystring: metricsQuerySchema,
        response: { 200: envelopeSchema(metricsSeriesSchema) },
      },
    },
    async (request) =>
      ok(await instanceMetrics(deps, signedInUser(request), request.params.uuid, request.query.range)),
  );

  app.get(
    '/api/gpu/instances/gpu-sparklines',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['monitoring'],
        summary: '运行中实例最近一小时的 GPU 利用率',
        response: { 200: envelopeSchema(gpuSparklinesSchema) },
      },
    },
    async (request) => ok(await gpuSparklines(deps, signedInUser(request))),
  );

  app.get(
    '/api/admin/hosts/:id/metrics',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin-hosts'],
        summary: '主机监控（按 GPU 编号）',
        params: idParamsSchema('主机编号无效'),
        querystring: metricsQuerySchema,
        response: { 200: envelopeSchema(hostMetricsSeriesSchema) },
      },
    },
    async (request) => ok(await hostMetrics(deps, request.params.id, request.query.range)),
  );
}
