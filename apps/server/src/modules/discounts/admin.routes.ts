import {
  adminDashboardSchema,
  discountAdminSchema,
  discountInputSchema,
  discountListQuerySchema,
  discountStatusInputSchema,
  envelopeSchema,
  pageSchema,
  promotionScopesSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, adminTenantScope } from '../auth/index.ts';
import {
  adminDashboard,
  createDiscount,
  deleteDiscount,
  listDiscounts,
  promotionScopes,
  setDiscountStatus,
  updateDiscount,
} from './admin.usecases.ts';
import type { DiscountsDeps } from './discounts.deps.ts';

const idParams = idParamsSchema('折扣编号无效');

/** Discount rules for admins (SPEC.md §7 admin Discounts) and the dashboard's figures. */
export async function discountAdminRoutes(app: AppInstance, { db, now, changed, stats }: DiscountsDeps) {
  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-discounts'];
  // The market shows discounted prices: a rule change drops both caches (after commit).
  const deps = { db, now, invalidate: changed };

  app.get(
    '/api/admin/discounts',
    {
      ...admin,
      schema: {
        tags,
        summary: '折扣活动列表',
        querystring: discountListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(discountAdminSchema)) },
      },
    },
    async (request) => ok(await listDiscounts(deps, request.query, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/discounts',
    {
      ...admin,
      schema: {
        tags,
        summary: '新建折扣活动',
        body: discountInputSchema,
        response: { 200: envelopeSchema(discountAdminSchema) },
      },
    },
    async (request) =>
      ok(
        await createDiscount(deps, adminActor(request), request.body, adminTenantScope(request)),
        '折扣活动已创建',
      ),
  );
  app.put(
    '/api/admin/discounts/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改折扣活动',
        params: idParams,
        body: discountInputSchema,
        response: { 200: envelopeSchema(discountAdminSchema) },
      },
    },
    async (request) =>
      ok(
        await updateDiscount(
          deps,
          adminActor(request),
          request.params.id,
          request.body,
          adminTenantScope(request),
        ),
        '折扣活动已保存',
      ),
  );
  app.put(
    '/api/admin/discounts/:id/status',
    {
      ...admin,
      schema: {
        tags,
        summary: '启用/停用折扣活动',
        params: idParams,
        body: discountStatusInputSchema,
        response: { 200: envelopeSchema(discountAdminSchema) },
      },
    },
    async (request) => {
      const d = await setDiscountStatus(
        deps,
        adminActor(request),
        request.params.id,
        request.body.enabled,
        adminTenantScope(request),
      );
      return ok(d, d.enabled ? '已启用' : '已停用');
    },
  );
  app.delete(
    '/api/admin/discounts/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '删除折扣活动',
        params: idParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await deleteDiscount(deps, adminActor(request), request.params.id, adminTenantScope(request));
      return ok(null, '折扣活动已删除');
    },
  );
  app.get(
    '/api/admin/promotions/scopes',
    {
      ...admin,
      schema: {
        tags,
        summary: '折扣与代金券可选的适用范围（地区、租户、GPU型号）',
        response: { 200: envelopeSchema(promotionScopesSchema) },
      },
    },
    async (request) => ok(await promotionScopes(deps, adminTenantScope(request))),
  );
  app.get(
    '/api/admin/dashboard',
    {
      ...admin,
      schema: { tags, summary: '后台首页关键数据', response: { 200: envelopeSchema(adminDashboardSchema) } },
    },
    async () => {
      const figures = await stats.get('dashboard', () => adminDashboard(deps));
      return ok({ ...figures.value, computedAt: figures.computedAt.toISOString() });
    },
  );
}
