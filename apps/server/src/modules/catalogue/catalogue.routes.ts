import {
  adminImageQuerySchema,
  adminImageSchema,
  envelopeSchema,
  gpuSkuCreateSchema,
  gpuSkuQuerySchema,
  gpuSkuSchema,
  gpuSkuSyncResultSchema,
  gpuSkuUpdateSchema,
  gpuTypeSchema,
  gpuTypeStatusResultSchema,
  gpuTypeStatusSchema,
  imageCreateSchema,
  imageUpdateSchema,
  pageSchema,
  regionCreateSchema,
  regionSchema,
  regionUpdateSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor } from '../auth/index.ts';
import {
  type CatalogueDeps,
  createRegion,
  gpuTypes,
  listRegions,
  setGpuTypeStatus,
  updateRegion,
} from './catalogue.usecases.ts';
import { createImage, getImage, listImages, updateImage } from './images.usecases.ts';
import { allSkus, createSku, deleteSku, getSku, listSkus, syncSkus, updateSku } from './skus.usecases.ts';

/** Regions, GPU types, images and GPU SKUs for admins (SPEC.md §7 Admin). */
export async function catalogueRoutes(app: AppInstance, deps: CatalogueDeps) {
  const admin = { preHandler: app.requireAdmin };
  const regionParams = idParamsSchema('地区编号无效');
  const imageParams = idParamsSchema('镜像编号无效');
  const skuParams = idParamsSchema('SKU 编号无效');

  // ---- regions and GPU types ----
  app.get(
    '/api/admin/regions',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '地区列表',
        response: { 200: envelopeSchema(z.array(regionSchema)) },
      },
    },
    async () => ok(await listRegions(deps)),
  );
  app.post(
    '/api/admin/regions',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '新增地区',
        body: regionCreateSchema,
        response: { 200: envelopeSchema(regionSchema) },
      },
    },
    async (request) => ok(await createRegion(deps, adminActor(request), request.body), '地区已添加'),
  );
  app.put(
    '/api/admin/regions/:id',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '修改地区（含启用/停用）',
        params: regionParams,
        body: regionUpdateSchema,
        response: { 200: envelopeSchema(regionSchema) },
      },
    },
    async (request) =>
      ok(await updateRegion(deps, adminActor(request), request.params.id, request.body), '地区已更新'),
  );
  app.get(
    '/api/admin/regions/:id/gpu-types',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '地区的 GPU 型号',
        params: regionParams,
        response: { 200: envelopeSchema(z.array(gpuTypeSchema)) },
      },
    },
    async (request) => ok(await gpuTypes(deps, request.params.id)),
  );
  app.put(
    '/api/admin/regions/:id/gpu-types/status',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '地区 GPU 型号停售/恢复销售（该地区主机上该型号的全部 SKU 下架/上架）',
        params: regionParams,
        body: gpuTypeStatusSchema,
        response: { 200: envelopeSchema(gpuTypeStatusResultSchema) },
      },
    },
    async (request) =>
      ok(
        await setGpuTypeStatus(deps, adminActor(request), request.params.id, request.body),
        request.body.listed ? '已恢复销售' : '已停售',
      ),
  );
  app.get(
    '/api/admin/gpu-types',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '全部 GPU 型号',
        response: { 200: envelopeSchema(z.array(gpuTypeSchema)) },
      },
    },
    async () => ok(await gpuTypes(deps)),
  );

  // ---- images ----
  app.get(
    '/api/admin/images',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '镜像列表',
        querystring: adminImageQuerySchema,
        response: { 200: envelopeSchema(pageSchema(adminImageSchema)) },
      },
    },
    async (request) => ok(await listImages(deps, request.query)),
  );
  app.get(
    '/api/admin/images/:id',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '镜像详情',
        params: imageParams,
        response: { 200: envelopeSchema(adminImageSchema) },
      },
    },
    async (request) => ok(await getImage(deps, request.params.id)),
  );
  app.post(
    '/api/admin/images',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '新增镜像',
        body: imageCreateSchema,
        response: { 200: envelopeSchema(adminImageSchema) },
      },
    },
    async (request) => ok(await createImage(deps, adminActor(request), request.body), '镜像已添加'),
  );
  app.put(
    '/api/admin/images/:id',
    {
      ...admin,
      schema: {
        tags: ['admin-catalogue'],
        summary: '修改镜像（含启用/停用）',
        params: imageParams,
        body: imageUpdateSchema,
        response: { 200: envelopeSchema(adminImageSchema) },
      },
    },
    async (request) =>
      ok(await updateImage(deps, adminActor(request), request.params.id, request.body), '镜像已更新'),
  );

  // ---- GPU SKUs ----
  const skuTags = ['admin-gpu-sku'];
  app.get(
    '/api/admin/gpu-sku',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: 'GPU SKU 列表',
        querystring: gpuSkuQuerySchema,
        response: { 200: envelopeSchema(pageSchema(gpuSkuSchema)) },
      },
    },
    async (request) => ok(await listSkus(deps, request.query)),
  );
  app.get(
    '/api/admin/gpu-sku/all',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: '全部 GPU SKU',
        response: { 200: envelopeSchema(z.array(gpuSkuSchema)) },
      },
    },
    async () => ok(await allSkus(deps)),
  );
  app.post(
    '/api/admin/gpu-sku/sync',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: '按主机上报的 GPU 重算 SKU',
        response: { 200: envelopeSchema(gpuSkuSyncResultSchema) },
      },
    },
    async (request) => ok(await syncSkus(deps, adminActor(request)), 'SKU 已同步'),
  );
  app.get(
    '/api/admin/gpu-sku/:id',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: 'GPU SKU 详情',
        params: skuParams,
        response: { 200: envelopeSchema(gpuSkuSchema) },
      },
    },
    async (request) => ok(await getSku(deps, request.params.id)),
  );
  app.post(
    '/api/admin/gpu-sku',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: '新增 GPU SKU',
        body: gpuSkuCreateSchema,
        response: { 200: envelopeSchema(gpuSkuSchema) },
      },
    },
    async (request) => ok(await createSku(deps, adminActor(request), request.body), 'SKU 已添加'),
  );
  app.put(
    '/api/admin/gpu-sku/:id',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: '修改 GPU SKU',
        params: skuParams,
        body: gpuSkuUpdateSchema,
        response: { 200: envelopeSchema(gpuSkuSchema) },
      },
    },
    async (request) =>
      ok(await updateSku(deps, adminActor(request), request.params.id, request.body), 'SKU 已更新'),
  );
  app.delete(
    '/api/admin/gpu-sku/:id',
    {
      ...admin,
      schema: {
        tags: skuTags,
        summary: '删除 GPU SKU',
        params: skuParams,
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      await deleteSku(deps, adminActor(request), request.params.id);
      return ok({ id: request.params.id }, 'SKU 已删除');
    },
  );
}
