import { adminImageSchema, gpuSkuSchema, gpuTypeStatusResultSchema, regionSchema } from '@gpu/shared';
import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { gpuSkus } from '../market/market.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let admin: Record<string, string>;

// An empty production database (DEMO_DATA=off): only the default tenant exists.
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers = admin,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const lastAudit = async (action: string, target?: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), target ? eq(auditLog.target, target) : undefined))
      .orderBy(desc(auditLog.id))
      .limit(1)
  )[0];

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

describe('images', () => {
  it('creates, filters, edits and disables an image', async () => {
    const res = await call('POST', '/api/admin/images', {
      imageName: 'PyTorch 2.5',
      imageUrl: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
      frameworkType: 'pytorch',
      frameworkVersion: '2.5.1',
      pythonVersion: '3.11',
      cudaVersion: '12.4',
    });
    expect(res.statusCode, res.body).toBe(200);
    const image = adminImageSchema.parse(res.json().data);
    expect(image).toMatchObject({ gpuBrand: 'NVIDIA', enabled: true, platformType: 'local' });

    // The user catalogue shows it while enabled.
    const userList = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/gpu/images?gpuBrand=NVIDIA' })).json().data
        .imageList as {
        imageUrl: string;
      }[];
    expect((await userList()).map((i) => i.imageUrl)).toContain(image.imageUrl);

    const page = (await call('GET', '/api/admin/images?keyword=2.5&frameworkType=pytorch')).json().data;
    expect(page.total).toBe(1);
    expect((await call('GET', '/api/admin/images?frameworkType=tensorflow')).json().data.total).toBe(0);

    const off = await call('PUT', `/api/admin/images/${image.id}`, { enabled: false });
    expect(off.json().data.enabled).toBe(false);
    expect((await userList()).map((i) => i.imageUrl)).not.toContain(image.imageUrl);
    expect((await lastAudit('images.update', `image:${image.id}`))?.detail).toMatchObject({
      before: { enabled: true },
      after: { enabled: false },
    });
    await call('PUT', `/api/admin/images/${image.id}`, { enabled: true });
    expect((await call('GET', `/api/admin/images/${image.id}`)).json().data.imageName).toBe('PyTorch 2.5');
  });

  it('refuses a duplicate URL, a bad framework and unknown ids', async () => {
    const dup = await call('POST', '/api/admin/images', {
      imageName: '重复',
      imageUrl: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
      frameworkType: 'pytorch',
    });
    expect(dup.statusCode).toBe(409);
    const bad = await call('POST', '/api/admin/images', {
      imageName: 'x',
      imageUrl: 'a/b:1',
      frameworkType: 'jax',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('frameworkType');
    const badUrl = await call('POST', '/api/admin/images', {
      imageName: 'x',
      imageUrl: 'A B',
      frameworkType: 'base',
    });
    expect(badUrl.json().message).toContain('imageUrl');
    expect((await call('GET', '/api/admin/images/999999')).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/images/999999', { enabled: false })).statusCode).toBe(404);
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

describe('GPU types of a region: off sale and back', () => {
  const market = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/gpu/market?size=48',
        headers: { 'x-tenant-host': 'localhost' },
      })
    ).json().data.list as { hostName: string; regionId: number; gpuName: string }[];
  const skusOf = (hostName: string) =>
    t.db
      .select({ id: gpuSkus.id, listed: gpuSkus.listed, hourlyPrice: gpuSkus.hourlyPrice })
      .from(gpuSkus)
      .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
      .where(eq(hosts.name, hostName));
  const auditCount = async () =>
    (await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'gpu_types.status')))[0]?.n;
  const setStatus = (regionId: number, body: unknown) =>
    call('PUT', `/api/admin/regions/${regionId}/gpu-types/status`, body);
  let otherRegion = 0;

  it('sets up the same model in another region, and an unpriced second host in the first', async () => {
    const region = await call('POST', '/api/admin/regions', { name: '杭州B区', code: 'hangzhou-b' });
    otherRegion = region.json().data.id;
    const priced = await call('POST', '/api/admin/hosts', {
      name: 'hz-b-4090-01',
      regionId: otherRegion,
      driver: 'simulated',
      portRangeStart: 40_100,
      portRangeEnd: 40_119,
      settings: { gpus: { model: 'RTX 4090', memoryGb: 24, count: 2 } },
      sku: { hourlyPrice: 2.5 },
    });
    expect(priced.statusCode, priced.body).toBe(200);
    const unpriced = await call('POST', '/api/admin/hosts', {
      name: 'sh-a-4090-02',
      regionId: state.regionId,
      driver: 'simulated',
      portRangeStart: 40_200,
      portRangeEnd: 40_219,
      settings: { gpus: { model: 'RTX 4090', memoryGb: 24, count: 2 } },
    });
    expect(unpriced.statusCode, unpriced.body).toBe(200);
    // Sync gives it an unlisted SKU at ¥0.
    expect((await call('POST', '/api/admin/gpu-sku/sync')).json().data.created).toBe(1);

    const types = (await call('GET', `/api/admin/regions/${state.regionId}/gpu-types`)).json().data;
    expect(types).toEqual([
      expect.objectContaining({ gpuModel: 'RTX 4090', skuCount: 2, listedCount: 1, sale: 'some' }),
    ]);
    expect((await market()).map((i) => i.hostName).sort()).toEqual(['hz-b-4090-01', 'sh-a-4090-01']);
  });

  it('停售 unlists every SKU of that model in that region only, in one audited change', async () => {
    const before = await auditCount();
    const res = await setStatus(state.regionId, { gpuModel: 'RTX 4090', listed: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('已停售');
    expect(gpuTypeStatusResultSchema.parse(res.json().data)).toMatchObject({
      gpuModel: 'RTX 4090',
      regionIds: [state.regionId],
      skuCount: 2,
      listedCount: 0,
      sale: 'none',
      listed: false,
      changed: 1,
      unpriced: 0,
    });
    expect((await skusOf('sh-a-4090-01')).map((x) => x.listed)).toEqual([false]);
    expect((await skusOf('sh-a-4090-02')).map((x) => x.listed)).toEqual([false]);
    expect((await skusOf('hz-b-4090-01')).map((x) => x.listed)).toEqual([true]);

    // The market (its cache dropped after the commit) sells the model elsewhere only.
    const list = await market();
    expect(list.map((i) => [i.hostName, i.regionId, i.gpuName])).toEqual([
      ['hz-b-4090-01', otherRegion, 'RTX 4090'],
    ]);
    expect((await call('GET', `/api/admin/regions/${otherRegion}/gpu-types`)).json().data[0]).toMatchObject({
      sale: 'all',
      listedCount: 1,
    });
    expect((await call('GET', '/api/admin/gpu-types')).json().data).toEqual([
      expect.objectContaining({ gpuModel: 'RTX 4090', skuCount: 3, listedCount: 1, sale: 'some' }),
    ]);

    expect(await auditCount()).toBe((before ?? 0) + 1);
    const [skuA] = await skusOf('sh-a-4090-01');
    const [skuA2] = await skusOf('sh-a-4090-02');
    expect((await lastAudit('gpu_types.status', `region:${state.regionId}`))?.detail).toEqual({
      gpuModel: 'RTX 4090',
      listed: false,
      skuIds: [skuA?.id, skuA2?.id],
      changedIds: [skuA?.id],
    });

    // Again: nothing left to change, still one row per call.
    const again = await setStatus(state.regionId, { gpuModel: 'RTX 4090', listed: false });
    expect(again.json().data).toMatchObject({ changed: 0, sale: 'none' });
  });

  it('恢复销售 lists them again, except a SKU never priced (¥0)', async () => {
    const res = await setStatus(state.regionId, { gpuModel: 'RTX 4090', listed: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('已恢复销售');
    expect(res.json().data).toMatchObject({
      listedCount: 1,
      sale: 'some',
      listed: true,
      changed: 1,
      unpriced: 1,
    });
    expect((await skusOf('sh-a-4090-01')).map((x) => x.listed)).toEqual([true]);
    expect(await skusOf('sh-a-4090-02')).toEqual([
      expect.objectContaining({ listed: false, hourlyPrice: 0 }),
    ]);
    expect((await market()).map((i) => i.hostName).sort()).toEqual(['hz-b-4090-01', 'sh-a-4090-01']);
    const [skuA2] = await skusOf('sh-a-4090-02');
    expect((await lastAudit('gpu_types.status', `region:${state.regionId}`))?.detail).toMatchObject({
      listed: true,
      unpricedIds: [skuA2?.id],
    });
  });

  it('refuses a bad body (400 naming the field), an unknown region (404) and a model it lacks (422)', async () => {
    const noModel = await setStatus(state.regionId, { listed: false });
    expect(noModel.statusCode).toBe(400);
    expect(noModel.json().message).toContain('gpuModel');
    const badFlag = await setStatus(state.regionId, { gpuModel: 'RTX 4090', listed: 'no' });
    expect(badFlag.statusCode).toBe(400);
    expect(badFlag.json().message).toContain('listed');
    expect(badFlag.json().message).toContain('上架状态必须是布尔值');
    const blank = await setStatus(state.regionId, { gpuModel: '  ', listed: false });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('请填写GPU 型号');
    expect((await setStatus(state.regionId, { gpuModel: 'RTX 4090', listed: false, x: 1 })).statusCode).toBe(
      400,
    );

    const unknown = await setStatus(999_999, { gpuModel: 'RTX 4090', listed: false });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('地区不存在');
    const lacking = await setStatus(state.regionId, { gpuModel: 'H100', listed: false });
    expect(lacking.statusCode).toBe(422);
    expect(lacking.json().message).toContain('H100');
    // Nothing changed by the refusals.
    expect((await skusOf('sh-a-4090-01')).map((x) => x.listed)).toEqual([true]);
  });
});
