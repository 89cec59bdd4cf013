import {
  envelopeSchema,
  HOST_DRIVER_KINDS,
  hostCreateSchema,
  hostDetailSchema,
  hostListQuerySchema,
  hostPortsResultSchema,
  hostProbeResultSchema,
  hostSchema,
  hostStatisticsSchema,
  hostStatusInputSchema,
  hostUpdateSchema,
  pageSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor } from '../auth/index.ts';
import {
  createHost,
  deleteHost,
  getHost,
  type HostsDeps,
  hostStatistics,
  initPorts,
  listHosts,
  listHostsByType,
  setHostStatus,
  updateHost,
} from './hosts.usecases.ts';
import { testConnection } from './probe.usecases.ts';

const idParams = idParamsSchema('主机编号无效');

/** Host management for admins (SPEC.md §7 Hosts) and the local-docker user endpoints. */
export async function hostsRoutes(app: AppInstance, deps: HostsDeps) {
  const admin = { preHandler: app.requireAdmin };
  /** Host writes change listings and GPU counts: the market's short cache must drop them. */
  const changed = <T>(result: T): T => {
    deps.changed();
    return result;
  };
  const tags = ['admin-hosts'];

  app.get(
    '/api/admin/hosts',
    {
      ...admin,
      schema: {
        tags,
        summary: '主机列表',
        querystring: hostListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(hostSchema)) },
      },
    },
    async (request) => ok(await listHosts(deps, request.query)),
  );

  app.get(
    '/api/admin/hosts/statistics',
    {
      ...admin,
      schema: { tags, summary: '主机统计', response: { 200: envelopeSchema(hostStatisticsSchema) } },
    },
    async () => ok(await hostStatistics(deps)),
  );

  app.get(
    '/api/admin/hosts/type/:type',
    {
      ...admin,
      schema: {
        tags,
        summary: '按驱动类型列出主机',
        params: z.object({
          type: z.enum(HOST_DRIVER_KINDS, { message: '类型只能是 simulated、docker 或 vastai' }),
        }),
        response: { 200: envelopeSchema(z.array(hostSchema)) },
      },
    },
    async (request) => ok(await listHostsByType(deps, request.params.type)),
  );

  app.get(
    '/api/admin/hosts/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '主机详情',
        params: idParams,
        response: { 200: envelopeSchema(hostDetailSchema) },
      },
    },
    async (request) => ok(await getHost(deps, request.params.id)),
  );

  app.post(
    '/api/admin/hosts',
    {
      ...admin,
      schema: {
        tags,
        summary: '新增主机',
        body: hostCreateSchema,
        response: { 200: envelopeSchema(hostDetailSchema) },
      },
    },
    async (request) => ok(changed(await createHost(deps, adminActor(request), request.body)), '主机已添加'),
  );

  app.put(
    '/api/admin/hosts/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改主机',
        params: idParams,
        body: hostUpdateSchema,
        response: { 200: envelopeSchema(hostDetailSchema) },
      },
    },
    async (request) =>
      ok(changed(await updateHost(deps, adminActor(request), request.params.id, request.body)), '主机已更新'),
  );

  app.patch(
    '/api/admin/hosts/:id/status',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改主机状态',
        params: idParams,
        body: hostStatusInputSchema,
        response: { 200: envelopeSchema(hostDetailSchema) },
      },
    },
    async (request) =>
      ok(
        changed(await setHostStatus(deps, adminActor(request), request.params.id, request.body.status)),
        '状态已更新',
      ),
  );

  app.delete(
    '/api/admin/hosts/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '删除主机',
        params: idParams,
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) =>
      ok(changed(await deleteHost(deps, adminActor(request), request.params.id)), '主机已删除'),
  );

  app.post(
    '/api/admin/hosts/:id/test-connection',
    {
      ...admin,
      schema: {
        tags,
        summary: '测试主机连接并更新 GPU 信息',
        params: idParams,
        response: { 200: envelopeSchema(hostProbeResultSchema) },
      },
    },
    async (request) => {
      const result = changed(await testConnection(deps, adminActor(request), request.params.id));
      return ok(result, result.reachable ? '连接成功' : '连接失败');
    },
  );

  app.post(
    '/api/admin/hosts/:id/init-ports',
    {
      ...admin,
      schema: {
        tags,
        summary: '按端口范围初始化端口池',
        params: idParams,
        response: { 200: envelopeSchema(hostPortsResultSchema) },
      },
    },
    async (request) => ok(await initPorts(deps, adminActor(request), request.params.id), '端口池已初始化'),
  );
}
