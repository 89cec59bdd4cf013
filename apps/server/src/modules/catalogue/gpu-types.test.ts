import { gpuTypeStatusResultSchema } from '@gpu/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { catalogueCalls, type T } from './catalogue.test-helpers.ts';

const state: { regionId: number } = { regionId: 0 };
let t: T;
let admin: Record<string, string>;

// An empty production database (DEMO_DATA=off): only the default tenant exists.
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  admin = await t.adminHeaders();
  // What the GPU SKU tests of catalogue.test.ts leave: a region whose one host sells RTX 4090 at ¥1.88.
  state.regionId = (
    await call('POST', '/api/admin/regions', { name: '上海A区', code: 'shanghai-a' })
  ).json().data.id;
  const host = await call('POST', '/api/admin/hosts', {
    name: 'sh-a-4090-01',
    regionId: state.regionId,
    driver: 'simulated',
    portRangeStart: 40_000,
    portRangeEnd: 40_019,
    settings: { gpus: { model: 'RTX 4090', memoryGb: 24, count: 4 } },
    sku: { hourlyPrice: 1.88 },
  });
  if (host.statusCode !== 200) throw new Error(host.body);
});
afterAll(() => t.close());

const { call, lastAudit } = catalogueCalls(
  () => t,
  () => admin,
);

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
