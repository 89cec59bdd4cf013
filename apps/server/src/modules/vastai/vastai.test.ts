import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { FAKE_VAST_IMAGES, type FakeVast } from '../hosts/drivers/vastai/fake-vastai.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { type Item, marketItemsOf, type OverseasTestApp, overseasTestApp } from './vastai.test-helpers.ts';
import { refreshOffers } from './vastai.usecases.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let fake: FakeVast;
let h: OverseasTestApp;
beforeAll(async () => {
  ({ fake, h } = await overseasTestApp(clock));
});
afterAll(async () => {
  await h.t.close();
  await fake.close();
});
const marketItems = (q = '') => marketItemsOf(h, q);

describe('overseas offers in the market', () => {
  it('lists vast.ai offers as vast-<offerId> items in the overseas region, last, priced from USD', async () => {
    const m = await marketItems();
    const overseas = m.list.filter((i) => i.skuGpuId.startsWith('vast-'));
    expect(overseas.length).toBe(fake.offers.length);
    const twin = fake.offers.find((o) => o.gpu_name === 'RTX 4090' && o.num_gpus === 2);
    const item = overseas.find((i) => i.skuGpuId === `vast-${twin?.id}`);
    // $0.70/h for 2 GPUs × 7.2 × 1.3 = 3.276 → 3.28 yuan per GPU-hour.
    expect(item).toMatchObject({ gpuName: 'RTX 4090', gpuNum: 2, price: 3.28 });
    expect(m.regions.at(-1)?.overseas).toBe(true);
    expect(m.list.at(-1)?.skuGpuId).toMatch(/^vast-/);
    expect(m.gpuModels).toContain('B200');
  });

  it('a disabled overseas region takes its vast.ai offers and its filter choice out of the market', async () => {
    const [place] = await h.t.db.select().from(hosts).where(eq(hosts.driver, 'vastai'));
    const region = eq(regions.id, place?.regionId ?? -1);
    await h.t.db.update(regions).set({ enabled: false }).where(region);
    try {
      const m = await marketItems();
      expect(m.list.some((i) => i.skuGpuId.startsWith('vast-'))).toBe(false);
      expect(m.regions.some((r) => r.overseas)).toBe(false);
    } finally {
      await h.t.db.update(regions).set({ enabled: true }).where(region);
    }
    expect((await marketItems()).list.some((i) => i.skuGpuId.startsWith('vast-'))).toBe(true);
  });

  it('status and offers endpoints; offers carry the images they can run', async () => {
    const status = (await h.t.app.inject({ method: 'GET', url: '/api/gpu/vastai/status' })).json().data;
    expect(status).toMatchObject({
      configured: true,
      lastRefreshOk: true,
      offerCount: fake.offers.length,
      message: null,
    });
    const u = await h.funded(0);
    const offers = (
      await h.t.app.inject({ method: 'GET', url: '/api/gpu/vastai/offers', headers: u.headers })
    ).json().data as { images: string[]; skuGpuId: string }[];
    expect(offers[0]?.images).toEqual(FAKE_VAST_IMAGES);
  });

  it('a failed refresh keeps the last offers and says so; the market still answers', async () => {
    fake.failNext(500, 1);
    await expect(refreshOffers(h.t.app.deps.modules.vastai)).rejects.toThrow('vast.ai 服务暂时不可用');
    const status = (await h.t.app.inject({ method: 'GET', url: '/api/gpu/vastai/status' })).json().data;
    expect(status.lastRefreshOk).toBe(false);
    expect(status.message).toContain('刷新失败');
    expect((await marketItems()).list.filter((i) => i.skuGpuId.startsWith('vast-')).length).toBe(
      fake.offers.length,
    );
    await refreshOffers(h.t.app.deps.modules.vastai);
  });
});

describe('without a key', () => {
  it('says the overseas area is not configured and the market works without it', async () => {
    const t = await createTestApp();
    try {
      const status = (await t.app.inject({ method: 'GET', url: '/api/gpu/vastai/status' })).json().data;
      expect(status).toMatchObject({ configured: false, message: '海外 GPU（vast.ai）未配置' });
      const market = await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48' });
      expect(market.statusCode).toBe(200);
      expect(market.json().data.list.some((i: Item) => i.skuGpuId.startsWith('vast-'))).toBe(false);
      const u = await t.createUser();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/gpu/vastai/instance/create',
        headers: u.headers,
        payload: { offerId: 1, label: 'a', image: FAKE_VAST_IMAGES[0] },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('海外 GPU（vast.ai）未配置');
    } finally {
      await t.close();
    }
  });

  it('still offers the overseas region, last and empty, when no host of ours is there either (issue 14)', async () => {
    const t = await createTestApp();
    try {
      // No overseas machine at all: the demo's one host of ours in the overseas region goes.
      await t.db.delete(hosts).where(eq(hosts.name, 'us-w-4090-01'));
      t.app.deps.modules.market.market.invalidate();
      const market = async (q = '') => {
        const res = await t.app.inject({ method: 'GET', url: `/api/gpu/market?size=48${q}` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as {
          list: Item[];
          total: number;
          regions: { id: number; name: string; overseas: boolean }[];
        };
      };
      const all = await market();
      expect(all.regions.map((r) => r.name)).toEqual([
        '安徽A区',
        '北京A区',
        '广东B区',
        '内蒙古A区',
        '海外区（美国）',
      ]);
      const overseas = all.regions.at(-1);
      expect(overseas?.overseas).toBe(true);
      // The other regions' machines still list; nothing is listed in the overseas region.
      expect(all.total).toBeGreaterThan(0);
      expect(all.list.every((i) => i.regionName !== '海外区（美国）')).toBe(true);
      const chosen = await market(`&regionId=${overseas?.id}`);
      expect(chosen).toMatchObject({ list: [], total: 0 });
      expect(chosen.regions.at(-1)).toEqual(overseas);
      const anhui = await market(`&regionId=${all.regions[0]?.id}`);
      expect(anhui.total).toBeGreaterThan(0);

      // Region writes reach the cached answer (no invalidate by hand from here on): a new
      // overseas region comes after the first (sort order), a disabled one leaves.
      const admin = await t.adminHeaders();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/regions',
        headers: admin,
        payload: { name: '海外区（欧洲）', code: 'overseas-eu', sortOrder: 950, overseas: true },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect((await market()).regions.slice(-2).map((r) => r.name)).toEqual([
        '海外区（美国）',
        '海外区（欧洲）',
      ]);
      const disabled = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/regions/${overseas?.id}`,
        headers: admin,
        payload: { enabled: false },
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect((await market()).regions.map((r) => r.name)).toEqual([
        '安徽A区',
        '北京A区',
        '广东B区',
        '内蒙古A区',
        '海外区（欧洲）',
      ]);
      // A tenant that does not show the overseas regions is not offered them.
      const aurora = await t.app.inject({
        method: 'GET',
        url: '/api/gpu/market?size=48',
        headers: { 'x-tenant-host': '127.0.0.1' },
      });
      expect(aurora.json().data.regions.map((r: { name: string }) => r.name)).toEqual([
        '安徽A区',
        '北京A区',
        '广东B区',
      ]);
    } finally {
      await t.close();
    }
  });
});
