import {
  distributionDetailSchema,
  distributionExecuteInputSchema,
  distributionListQuerySchema,
  distributionPreviewInputSchema,
  distributionPreviewSchema,
  distributionResultSchema,
  distributionSchema,
  envelopeSchema,
  pageSchema,
  voucherConfigInputSchema,
  voucherConfigListQuerySchema,
  voucherConfigSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, adminTenantScope } from '../auth/index.ts';
import { createConfig, deleteConfig, listConfigs, toggleConfig, updateConfig } from './configs.usecases.ts';
import {
  distributionDetail,
  distributionHistory,
  executeDistribution,
  previewDistribution,
} from './distribution.usecases.ts';
import type { VouchersDeps } from './vouchers.deps.ts';

const idParams = idParamsSchema('编号无效');

/** Voucher configs and batch distribution for admins (SPEC.md §7). */
export async function voucherAdminRoutes(app: AppInstance, deps: VouchersDeps) {
  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-vouchers'];

  app.get(
    '/api/admin/vouchers/configs',
    {
      ...admin,
      schema: {
        tags,
        summary: '代金券配置列表',
        querystring: voucherConfigListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(voucherConfigSchema)) },
      },
    },
    async (request) => ok(await listConfigs(deps, request.query, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/vouchers/configs',
    {
      ...admin,
      schema: {
        tags,
        summary: '新建代金券配置',
        body: voucherConfigInputSchema,
        response: { 200: envelopeSchema(voucherConfigSchema) },
      },
    },
    async (request) =>
      ok(
        await createConfig(deps, adminActor(request), request.body, adminTenantScope(request)),
        '代金券配置已创建',
      ),
  );
  app.put(
    '/api/admin/vouchers/configs/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改代金券配置（只影响之后发放的代金券）',
        params: idParams,
        body: voucherConfigInputSchema,
        response: { 200: envelopeSchema(voucherConfigSchema) },
      },
    },
    async (request) =>
      ok(
        await updateConfig(
          deps,
          adminActor(request),
          request.params.id,
          request.body,
          adminTenantScope(request),
        ),
        '代金券配置已保存',
      ),
  );
  app.patch(
    '/api/admin/vouchers/configs/:id/toggle',
    {
      ...admin,
      schema: {
        tags,
        summary: '启用/停用代金券配置',
        params: idParams,
        response: { 200: envelopeSchema(voucherConfigSchema) },
      },
    },
    async (request) => {
      const cfg = await toggleConfig(deps, adminActor(request), request.params.id, adminTenantScope(request));
      return ok(cfg, cfg.enabled ? '已启用' : '已停用');
    },
  );
  app.delete(
    '/api/admin/vouchers/configs/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '删除代金券配置（已发放过则拒绝；archive=true 时归档）',
        params: idParams,
        querystring: z.object({ archive: z.enum(['true', 'false'], { message: '参数无效' }).optional() }),
        response: { 200: envelopeSchema(z.object({ archived: z.boolean() })) },
      },
    },
    async (request) => {
      const r = await deleteConfig(
        deps,
        adminActor(request),
        request.params.id,
        request.query.archive === 'true',
        adminTenantScope(request),
      );
      return ok(r, r.archived ? '已归档' : '已删除');
    },
  );

  app.post(
    '/api/admin/voucher-distribution/preview',
    {
      ...admin,
      schema: {
        tags,
        summary: '预览发放对象（人数与样例）',
        body: distributionPreviewInputSchema,
        response: { 200: envelopeSchema(distributionPreviewSchema) },
      },
    },
    async (request) => ok(await previewDistribution(deps, request.body, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/voucher-distribution/execute',
    {
      ...admin,
      schema: {
        tags,
        summary: '执行发放（同一 requestId 只发放一次）',
        body: distributionExecuteInputSchema,
        response: { 200: envelopeSchema(distributionResultSchema) },
      },
    },
    async (request) => {
      const { distribution, repeated } = await executeDistribution(
        deps,
        adminActor(request),
        request.body,
        adminTenantScope(request),
      );
      return ok(
        distribution,
        repeated ? '该发放已执行过，未重复发放' : `已发放${distribution.issuedCount}张代金券`,
      );
    },
  );
  app.get(
    '/api/admin/voucher-distribution/history',
    {
      ...admin,
      schema: {
        tags,
        summary: '发放记录',
        querystring: distributionListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(distributionSchema)) },
      },
    },
    async (request) => ok(await distributionHistory(deps, request.query, adminTenantScope(request))),
  );
  app.get(
    '/api/admin/voucher-distribution/detail/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '发放详情（谁领到了哪张）',
        params: idParams,
        response: { 200: envelopeSchema(distributionDetailSchema) },
      },
    },
    async (request) => ok(await distributionDetail(deps, request.params.id, adminTenantScope(request))),
  );
}
