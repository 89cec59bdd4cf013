import { gpuSkuSchema, regionSchema } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { catalogueCalls, type T } from './catalogue.test-helpers.ts';

let t: T;
let admin: Record<string, string>;

// An empty production database (DEMO_DATA=off): only the default tenant exists.
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const { call, lastAudit } = catalogueCalls(
  () => t,
  () => admin,
);

const state: { regionId: number; hostId: number; skuId: number } = { regionId: 0, hostId: 0, skuId: 0 };

describe('catalogue API: access', () => {
  it.each([
    ['GET', '/api/admin/regions'],
    ['POST', '/api/admin/regions'],
    ['GET', '/api/admin/gpu-types'],
    ['GET', '/api/admin/regions/1/gpu-types'],
    ['PUT', '/api/admin/regions/1/gpu-types/status'],
    ['GET', '/api/admin/images'],
    ['POST', '/api/admin/images'],
    ['GET', '/api/admin/gpu-sku'],
    ['GET', '/api/admin/gpu-sku/all'],
    ['POST', '/api/admin/gpu-sku/sync'],
    ['DELETE', '/api/admin/gpu-sku/1'],
  ] as const)('%s %s: 401 for strangers and users', async (method, url) => {
    expect(
      (await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, {})).statusCode,
    ).toBe(401);
    const { headers } = await t.createUser();
    const res = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, headers);
    expect([401, 403]).toContain(res.statusCode);
    expect(res.json().success).toBe(false);
  });
});

describe('regions', () => {
  it('creates, lists, edits and disables a region, each write audited', async () => {
    const res = await call('POST', '/api/admin/regions', {
      name: '上海A区',
      code: 'shanghai-a',
      sortOrder: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const region = regionSchema.parse(res.json().data);
    expect(region).toMatchObject({ name: '上海A区', enabled: true, overseas: false, hostCount: 0 });
    state.regionId = region.id;
    expect((await lastAudit('regions.create', `region:${region.id}`))?.detail).toMatchObject({
      after: { code: 'shanghai-a' },
    });

    const list = (await call('GET', '/api/admin/regions')).json().data;
    expect(list.map((r: { code: string }) => r.code)).toEqual(['shanghai-a']);

    const edited = await call('PUT', `/api/admin/regions/${region.id}`, { name: '上海一区', enabled: false });
    expect(edited.json().data).toMatchObject({ name: '上海一区', enabled: false, code: 'shanghai-a' });
    const audit = await lastAudit('regions.update', `region:${region.id}`);
    expect(audit?.detail).toMatchObject({
      before: { name: '上海A区', enabled: true },
      after: { name: '上海一区', enabled: false },
    });
    await call('PUT', `/api/admin/regions/${region.id}`, { enabled: true });
  });

  it('refuses duplicates (409), bad fields (400 naming them) and unknown ids (404)', async () => {
    const dup = await call('POST', '/api/admin/regions', { name: '其他', code: 'shanghai-a' });
    expect(dup.statusCode).toBe(409);
    const bad = await call('POST', '/api/admin/regions', { name: '', code: 'x y' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/name|code/);
    const badSort = await call('POST', '/api/admin/regions', { name: '甲', code: 'jia', sortOrder: 'first' });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('sortOrder');
    expect((await call('PUT', '/api/admin/regions/999999', { name: '无' })).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/regions/999999/gpu-types')).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/regions/1', { unknownField: 1 })).statusCode).toBe(400);
  });
});

describe('GPU SKUs', () => {
  it('registers a simulated host, then syncs, edits and lists its SKU', async () => {
    const host = await call('POST', '/api/admin/hosts', {
      name: 'sh-a-4090-01',
      regionId: state.regionId,
      driver: 'simulated',
      portRangeStart: 40_000,
      portRangeEnd: 40_019,
      settings: { gpus: { model: 'RTX 4090', memoryGb: 24, count: 4 } },
    });
    expect(host.statusCode, host.body).toBe(200);
    state.hostId = host.json().data.id;
    // Registered without a price: no SKU yet, but the GPUs are known.
    expect(host.json().data.skus).toEqual([]);
    expect((await t.db.select().from(hostGpus).where(eq(hostGpus.hostId, state.hostId))).length).toBe(4);

    const sync = await call('POST', '/api/admin/gpu-sku/sync');
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json().data).toMatchObject({ hosts: 1, created: 1, unlisted: 0 });
    // Again: nothing to do.
    expect((await call('POST', '/api/admin/gpu-sku/sync')).json().data).toMatchObject({
      created: 0,
      updated: 0,
    });

    const all = (await call('GET', '/api/admin/gpu-sku/all')).json().data;
    expect(all).toHaveLength(1);
    const sku = gpuSkuSchema.parse(all[0]);
    expect(sku).toMatchObject({
      gpuModel: 'RTX 4090',
      memoryGb: 24,
      listed: false,
      hourlyPrice: 0,
      gpuTotal: 4,
      gpuIdle: 4,
    });
    state.skuId = sku.id;

    const priced = await call('PUT', `/api/admin/gpu-sku/${sku.id}`, { hourlyPrice: 1.88, listed: true });
    expect(priced.json().data).toMatchObject({ hourlyPrice: 1.88, listed: true, hostName: 'sh-a-4090-01' });
    expect((await lastAudit('gpu_sku.update', `gpu-sku:${sku.id}`))?.detail).toMatchObject({
      before: { hourlyPrice: 0, listed: false },
      after: { hourlyPrice: 18_800, listed: true },
    });

    const page = (await call('GET', `/api/admin/gpu-sku?regionId=${state.regionId}&listed=true`)).json().data;
    expect(page.total).toBe(1);
    expect((await call('GET', '/api/admin/gpu-sku?gpuModel=H100')).json().data.total).toBe(0);
    expect((await call('GET', `/api/admin/gpu-sku/${sku.id}`)).json().data.id).toBe(sku.id);

    const types = (await call('GET', `/api/admin/regions/${state.regionId}/gpu-types`)).json().data;
    expect(types).toEqual([
      {
        gpuModel: 'RTX 4090',
        gpuBrand: 'NVIDIA',
        memoryGb: 24,
        regionIds: [state.regionId],
        skuCount: 1,
        listedCount: 1,
        sale: 'all',
        gpuTotal: 4,
        gpuIdle: 4,
      },
    ]);
    expect((await call('GET', '/api/admin/gpu-types')).json().data).toHaveLength(1);
  });

  it('creates and deletes a SKU by hand, refusing duplicates, bad input and unknown ids', async () => {
    const res = await call('POST', '/api/admin/gpu-sku', {
      hostId: state.hostId,
      gpuModel: 'RTX 4090D',
      memoryGb: 24,
      hourlyPrice: 1.5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    const dup = await call('POST', '/api/admin/gpu-sku', {
      hostId: state.hostId,
      gpuModel: 'RTX 4090D',
      memoryGb: 24,
      hourlyPrice: 1,
    });
    expect(dup.statusCode).toBe(409);
    const noHost = await call('POST', '/api/admin/gpu-sku', {
      hostId: 999_999,
      gpuModel: 'X',
      memoryGb: 1,
      hourlyPrice: 1,
    });
    expect(noHost.statusCode).toBe(400);
    expect(noHost.json().message).toContain('hostId');
    const badPrice = await call('PUT', `/api/admin/gpu-sku/${id}`, { hourlyPrice: -1 });
    expect(badPrice.statusCode).toBe(400);
    expect(badPrice.json().message).toContain('hourlyPrice');
    expect((await call('DELETE', `/api/admin/gpu-sku/${id}`)).statusCode).toBe(200);
    expect((await lastAudit('gpu_sku.delete', `gpu-sku:${id}`))?.detail).toMatchObject({
      before: { gpuModel: 'RTX 4090D' },
    });
    expect((await call('GET', `/api/admin/gpu-sku/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/gpu-sku/${id}`)).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/gpu-sku/999999', { listed: false })).statusCode).toBe(404);
  });

  it('the market sells the listed SKU, and hides it when its region is disabled', async () => {
    const market = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/gpu/market',
          headers: { 'x-tenant-host': 'localhost' },
        })
      ).json().data.list as { hostName: string; price: number }[];
    expect(await market()).toEqual([expect.objectContaining({ hostName: 'sh-a-4090-01', price: 1.88 })]);
    await call('PUT', `/api/admin/regions/${state.regionId}`, { enabled: false });
    expect(await market()).toEqual([]);
    await call('PUT', `/api/admin/regions/${state.regionId}`, { enabled: true });
    expect(await market()).toHaveLength(1);
  });
});
