import {
  adminTenantSchema,
  envelopeSchema,
  idSchema,
  tenantCreateSchema,
  tenantHostsInputSchema,
  tenantHostsSchema,
  tenantPriceInputSchema,
  tenantPriceRowSchema,
  tenantUpdateSchema,
  uploadInputSchema,
  uploadResultSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, adminTenantScope } from '../auth/index.ts';
import {
  createTenant,
  deleteTenantPrice,
  getTenant,
  listTenants,
  readFile,
  setTenantHosts,
  setTenantPrice,
  type TenantAdminDeps,
  tenantHosts,
  tenantPrices,
  updateTenant,
  uploadImage,
} from './tenant-admin.usecases.ts';

/** Tenants, their host grants and prices, and image uploads for the back office. */
export async function tenantsAdminRoutes(app: AppInstance, deps: TenantAdminDeps) {
  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-tenants'];
  const params = idParamsSchema('租户编号无效');
  const priceParams = z.object({ id: idSchema('租户编号无效'), skuId: idSchema('SKU 编号无效') });

  app.get(
    '/api/admin/tenants',
    {
      ...admin,
      schema: { tags, summary: '租户列表', response: { 200: envelopeSchema(z.array(adminTenantSchema)) } },
    },
    async (request) => ok(await listTenants(deps, adminTenantScope(request))),
  );
  app.get(
    '/api/admin/tenants/:id',
    {
      ...admin,
      schema: { tags, summary: '租户详情', params, response: { 200: envelopeSchema(adminTenantSchema) } },
    },
    async (request) => ok(await getTenant(deps, request.params.id, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/tenants',
    {
      ...admin,
      schema: {
        tags,
        summary: '新增租户',
        body: tenantCreateSchema,
        response: { 200: envelopeSchema(adminTenantSchema) },
      },
    },
    async (request) => ok(await createTenant(deps, adminActor(request), request.body), '租户已添加'),
  );
  app.put(
    '/api/admin/tenants/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改租户（含停用）',
        params,
        body: tenantUpdateSchema,
        response: { 200: envelopeSchema(adminTenantSchema) },
      },
    },
    async (request) =>
      ok(
        await updateTenant(
          deps,
          adminActor(request),
          request.params.id,
          request.body,
          adminTenantScope(request),
        ),
        '租户已更新',
      ),
  );

  app.get(
    '/api/admin/tenants/:id/hosts',
    {
      ...admin,
      schema: { tags, summary: '租户可见主机', params, response: { 200: envelopeSchema(tenantHostsSchema) } },
    },
    async (request) => ok(await tenantHosts(deps, request.params.id)),
  );
  app.put(
    '/api/admin/tenants/:id/hosts',
    {
      ...admin,
      schema: {
        tags,
        summary: '设置租户可见主机（空表示可见地区的全部主机）',
        params,
        body: tenantHostsInputSchema,
        response: { 200: envelopeSchema(tenantHostsSchema) },
      },
    },
    async (request) =>
      ok(
        await setTenantHosts(deps, adminActor(request), request.params.id, request.body.hostIds),
        '主机权限已保存',
      ),
  );

  app.get(
    '/api/admin/tenants/:id/prices',
    {
      ...admin,
      schema: {
        tags,
        summary: '租户价格（每个 SKU）',
        params,
        response: { 200: envelopeSchema(z.array(tenantPriceRowSchema)) },
      },
    },
    async (request) => ok(await tenantPrices(deps, request.params.id, adminTenantScope(request))),
  );
  app.put(
    '/api/admin/tenants/:id/prices/:skuId',
    {
      ...admin,
      schema: {
        tags,
        summary: '设置租户价格',
        params: priceParams,
        body: tenantPriceInputSchema,
        response: { 200: envelopeSchema(tenantPriceRowSchema) },
      },
    },
    async (request) =>
      ok(
        await setTenantPrice(
          deps,
          adminActor(request),
          request.params.id,
          request.params.skuId,
          request.body,
          adminTenantScope(request),
        ),
        '价格已保存',
      ),
  );
  app.delete(
    '/api/admin/tenants/:id/prices/:skuId',
    {
      ...admin,
      schema: {
        tags,
        summary: '删除租户价格（恢复平台价）',
        params: priceParams,
        response: { 200: envelopeSchema(z.object({ skuId: z.number().int() })) },
      },
    },
    async (request) => {
      await deleteTenantPrice(
        deps,
        adminActor(request),
        request.params.id,
        request.params.skuId,
        adminTenantScope(request),
      );
      return ok({ skuId: request.params.skuId }, '已恢复平台价');
    },
  );

  app.post(
    '/api/admin/uploads',
    {
      ...admin,
      schema: {
        tags,
        summary: '上传图片（Logo、图标、二维码；PNG/JPEG/WebP/GIF/ICO，≤512 KB）',
        body: uploadInputSchema,
        response: { 200: envelopeSchema(uploadResultSchema) },
      },
    },
    async (request) => ok(await uploadImage(deps, adminActor(request), request.body.dataUrl), '上传成功'),
  );
  app.get(
    '/api/files/:id',
    {
      schema: {
        tags: ['files'],
        summary: '已上传的图片',
        params: z.object({ id: z.string().regex(/^[0-9a-f-]{36}$/, '文件编号无效') }),
      },
    },
    async (request, reply) => {
      const file = await readFile(deps, request.params.id);
      // Ids are random and files never change: cache for long; nosniff keeps the declared type.
      return reply
        .header('content-type', file.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  );
}
