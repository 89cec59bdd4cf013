import { type MarketItem, marketListSchema } from '@gpu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { DEMO_HOSTS } from '../system/demo-data.ts';
import { tenantHosts, tenantSkuPrices, tenants } from '../tenants/tenants.tables.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const market = async (query = '', host = 'localhost') => {
  t.app.deps.modules.market.market.invalidate();
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/gpu/market${query}`,
    headers: { 'x-tenant-host': host },
  });
  expect(res.statusCode, res.body).toBe(200);
  return marketListSchema.parse(res.json().data);
};
const byHost = (list: MarketItem[], name: string) => list.find((i) => i.hostName === name);
const withIdle = DEMO_HOSTS.filter((h) => h.gpuCount > h.busy);

describe('listing', () => {
  it('lists SKUs with at least one idle GPU, every SPEC field, in region order', async () => {
    const page = await market('?size=48');
    expect(page.total).toBe(withIdle.length);
    expect(page.list[0]?.regionName).toBe('安徽A区');
    expect(page.list.at(-1)?.regionName).toBe('海外区（美国）');
    expect(byHost(page.list, 'ah-a-3090-01')).toBeUndefined();
    expect(byHost(page.list, 'gd-b-h100-01')).toMatchObject({
      skuGpuId: expect.stringMatching(/^gpu-\d+$/),
      gpuName: 'H100 80GB',
      gpuBrand: 'NVIDIA',
      memoryGb: 80,
      gpuNum: 8,
      gpuIdleNum: 2,
      price: 15.8,
      cpuPerGpu: 14,
      cpuInfo: 'Intel Xeon Platinum 8480+',
      systemDiskGb: 30,
      dataDiskGb: 50,
      nvidiaDriver: '560.35.03',
      cudaVersion: '12.6',
      isLocalDocker: true,
      docker: true,
    });
    expect(page.regions.map((r) => r.name)).toEqual([
      '安徽A区',
      '北京A区',
      '广东B区',
      '内蒙古A区',
      '海外区（美国）',
    ]);
    expect(page.gpuModels).toContain('RTX 4090');
  });

  it('counts idle GPUs from live allocation', async () => {
    const [host] = await t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
    expect(byHost((await market('?size=48')).list, 'nm-a-l40s-01')?.gpuIdleNum).toBe(8);
    await t.db
      .update(hostGpus)
      .set({ instanceId: 999 })
      .where(and(eq(hostGpus.hostId, host?.id ?? -1), eq(hostGpus.index, 0), isNull(hostGpus.instanceId)));
    expect(byHost((await market('?size=48')).list, 'nm-a-l40s-01')?.gpuIdleNum).toBe(7);
    await t.db.update(hostGpus).set({ instanceId: null }).where(eq(hostGpus.instanceId, 999));
  });
});

describe('filters', () => {
  it('GPU count keeps hosts with at least that many idle GPUs; 1 or none means at least 1', async () => {
    const idle = (q: string) => market(q).then((p) => p.list.map((i) => i.gpuIdleNum));
    expect((await idle('?size=48&gpuCount=3')).every((n) => n >= 3)).toBe(true);
    expect(await idle('?size=48&gpuCount=3')).toHaveLength(
      withIdle.filter((h) => h.gpuCount - h.busy >= 3).length,
    );
    expect(await idle('?size=48&gpuCount=1')).toHaveLength(withIdle.length);
    expect(await idle('?size=48&gpuCount=8')).toEqual([8]);
  });

  it('filters by region, model and case-insensitive host name, alone and combined', async () => {
    const all = await market('?size=48');
    const anhui = all.regions[0]?.id;
    expect((await market(`?size=48&regionId=${anhui}`)).list.map((i) => i.hostName)).toEqual([
      'ah-a-4090-01',
    ]);
    expect((await market('?size=48&gpuModel=rtx%204090')).list.map((i) => i.hostName)).toEqual([
      'ah-a-4090-01',
      'us-w-4090-01',
    ]);
    expect((await market('?size=48&keyword=NM-A')).list.map((i) => i.hostName)).toEqual([
      'nm-a-l40s-01',
      'nm-a-910b-01',
    ]);
    expect(
      (await market(`?size=48&gpuModel=RTX%204090&regionId=${anhui}&keyword=4090&gpuCount=5`)).total,
    ).toBe(1);
    expect((await market(`?size=48&gpuModel=RTX%204090&regionId=${anhui}&gpuCount=6`)).total).toBe(0);
  });

  it('pages with the allowed sizes', async () => {
    const p1 = await market('?page=1&size=12');
    expect(p1.size).toBe(12);
    expect((await market('?page=2&size=12')).list).toHaveLength(0);
  });

  it.each([
    '?size=10',
    '?page=0',
    '?page=x',
    '?gpuCount=9',
    '?gpuCount=0',
    '?billingType=yearly',
    '?regionId=abc',
    `?keyword=${'x'.repeat(65)}`,
  ])('rejects %s with a 400 naming the field', async (q) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/gpu/market${q}` });
    expect(res.statusCode).toBe(400);
    const field = q.slice(1).split('=')[0] as string;
    expect(res.json().message).toContain(field);
  });
});

describe('tenants', () => {
  it('shows a tenant only its visible regions', async () => {
    const page = await market('?size=48', '127.0.0.1');
    expect([...new Set(page.list.map((i) => i.regionName))]).toEqual(['安徽A区', '北京A区', '广东B区']);
    expect(page.regions.map((r) => r.name)).toEqual(['安徽A区', '北京A区', '广东B区']);
  });

  it('restricts a tenant to its hosts and applies its own price', async () => {
    const [aurora] = await t.db.select().from(tenants).where(eq(tenants.code, 'aurora'));
    const [a100] = await t.db.select().from(hosts).where(eq(hosts.name, 'bj-a-a100-01'));
    const item = byHost((await market('?size=48', '127.0.0.1')).list, 'bj-a-a100-01');
    await t.db.insert(tenantHosts).values({ tenantId: aurora?.id as number, hostId: a100?.id as number });
    await t.db
      .insert(tenantSkuPrices)
      .values({ tenantId: aurora?.id as number, skuId: item?.id as number, hourlyPrice: 69_900 });
    const page = await market('?size=48', '127.0.0.1');
    expect(page.list.map((i) => i.hostName)).toEqual(['bj-a-a100-01']);
    expect(page.list[0]?.price).toBe(6.99);
    // The default tenant keeps the SKU's own price.
    expect(byHost((await market('?size=48')).list, 'bj-a-a100-01')?.price).toBe(7.58);
    await t.db.delete(tenantHosts);
    await t.db.delete(tenantSkuPrices);
  });
});

describe('discounts on the market', () => {
  it('prices discounted items with rate, description and end time; 折 from the rate', async () => {
    const item = byHost((await market('?size=48')).list, 'ah-a-4090-01');
    expect(item).toMatchObject({
      originalPrice: 1.98,
      discountPrice: 1.58, // 1.584 rounded half up to whole fen (issue 10)
      discountRate: 0.8,
      hasDiscount: true,
      discountDescription: '安徽A区 RTX 4090 限时 8 折',
      discountEndTime: new Date(clock.now().getTime() + 10 * 60_000).toISOString(),
    });
    const other = byHost((await market('?size=48')).list, 'us-w-4090-01');
    expect(other).toMatchObject({
      hasDiscount: false,
      discountPrice: 2.68,
      discountRate: 1,
      discountEndTime: null,
    });
  });

  it('adds package prices for package billing: configured, else the fallback factors', async () => {
    const list = (await market('?size=48&billingType=daily')).list;
    expect(byHost(list, 'bj-a-a100-01')).toMatchObject({ packagePrice: 150, packageDiscountPrice: 135 });
    // 3.98 × 0.85 × 24 = 81.192, rounded half up to whole fen (issue 10).
    expect(byHost(list, 'nm-a-l40s-01')?.packagePrice).toBe(81.19);
    expect(byHost((await market('?size=48')).list, 'bj-a-a100-01')?.packagePrice).toBeNull();
  });
});
