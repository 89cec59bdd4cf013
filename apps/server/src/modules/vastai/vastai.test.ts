import type { Instance } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { FAKE_VAST_IMAGES, type FakeVast, startFakeVast } from '../hosts/drivers/vastai/fake-vastai.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { billingRecords } from '../instances/instances.tables.ts';
import { instanceTestApp } from '../instances/instances.test-helpers.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { reconcileOverseas } from './reconcile.usecases.ts';
import { vastaiRentals } from './vastai.tables.ts';
import { refreshOffers } from './vastai.usecases.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let fake: FakeVast;
let h: Awaited<ReturnType<typeof instanceTestApp>>;

type Item = {
  id: number;
  skuGpuId: string;
  gpuName: string;
  price: number;
  gpuNum: number;
  regionName: string;
};
const marketItems = async (q = '') => {
  h.t.app.deps.services.market.invalidate();
  const res = await h.t.app.inject({ method: 'GET', url: `/api/gpu/market?size=48${q}` });
  return res.json().data as {
    list: Item[];
    regions: { name: string; overseas: boolean }[];
    gpuModels: string[];
  };
};

beforeAll(async () => {
  fake = await startFakeVast({ stepMs: 30 });
  h = await instanceTestApp(clock, {
    VASTAI_API_KEY: fake.apiKey,
    VASTAI_API_URL: fake.url,
    VASTAI_USD_CNY: '7.2',
    VASTAI_MARGIN_PERCENT: '30',
  });
  await refreshOffers(h.t.app.deps.vastai);
  // The vast.ai "host" polls its instances fast in tests.
  await h.t.db
    .update(hosts)
    .set({ settings: { pollMs: 10, startWaitMs: 5_000 } })
    .where(eq(hosts.driver, 'vastai'));
});
afterAll(async () => {
  await h.t.close();
  await fake.close();
});

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
    await expect(refreshOffers(h.t.app.deps.vastai)).rejects.toThrow('vast.ai 服务暂时不可用');
    const status = (await h.t.app.inject({ method: 'GET', url: '/api/gpu/vastai/status' })).json().data;
    expect(status.lastRefreshOk).toBe(false);
    expect(status.message).toContain('刷新失败');
    expect((await marketItems()).list.filter((i) => i.skuGpuId.startsWith('vast-')).length).toBe(
      fake.offers.length,
    );
    await refreshOffers(h.t.app.deps.vastai);
  });
});

describe('overseas instances', () => {
  const create = async (headers: Record<string, string>, body: Record<string, unknown>) => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/gpu/vastai/instance/create',
      headers,
      payload: body,
    });
    await h.deps.jobs.drain();
    return res;
  };
  const list = async (headers: Record<string, string>) =>
    (await h.t.app.inject({ method: 'GET', url: '/api/gpu/vastai/instances', headers })).json()
      .data as Instance[];
  /** The answer is the transitional state; waits for the job it kicked before returning it. */
  const power = async (headers: Record<string, string>, action: string, id: number) => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/vastai/instance/${action}?instanceId=${id}`,
      headers,
    });
    await h.deps.jobs.drain();
    return res;
  };
  const now = async (headers: Record<string, string>, id: number) =>
    (await list(headers)).find((i) => i.id === id);

  it('create → running with vast.ai SSH → power off → on → release; billed at the shown price', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ gpu_name: 'RTX 4090', num_gpus: 2, dph_total: 0.7 });
    await refreshOffers(h.t.app.deps.vastai);
    const shown = (await marketItems()).list.find((i) => i.skuGpuId === `vast-${offer.id}`) as Item;
    const res = await create(u.headers, {
      offerId: offer.id,
      label: 'abroad-1',
      diskSpace: 10,
      image: FAKE_VAST_IMAGES[0],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'CREATING', gpuCount: 2, billingType: 'hourly' });
    const id = res.json().data.id as number;
    const put = fake.requests.find((r) => r.method === 'PUT' && r.path === `/asks/${offer.id}/`);
    expect(put?.body).toMatchObject({ image: FAKE_VAST_IMAGES[0], disk: 10 });

    const [inst] = (await list(u.headers)).filter((i) => i.id === id);
    expect(inst).toMatchObject({ status: 'RUNNING', hourlyPrice: shown.price * 2, charged: 0 });
    // JupyterLab's own token goes to vast.ai, not the root password.
    const env = (put?.body as { env?: Record<string, string> } | undefined)?.env ?? {};
    expect(inst?.jupyterToken).toMatch(/^[0-9a-f]{48}$/);
    expect(env.JUPYTER_TOKEN).toBe(inst?.jupyterToken);
    expect(env.ROOT_PASSWORD).toBe(inst?.sshPassword);
    const vastId = Number(inst?.containerId);
    const vast = fake.instance(vastId);
    expect(vast?.actual_status).toBe('running');
    expect(inst?.sshCommand).toBe(`ssh -p ${vast?.ssh_port} root@${vast?.ssh_host}`);
    const ssh = (
      await h.t.app.inject({
        method: 'GET',
        url: `/api/gpu/vastai/instance/${id}/ssh-info`,
        headers: u.headers,
      })
    ).json().data;
    expect(ssh).toMatchObject({ host: vast?.ssh_host, port: vast?.ssh_port, command: inst?.sshCommand });
    // The rented offer left the market at once.
    expect((await marketItems()).list.some((i) => i.skuGpuId === `vast-${offer.id}`)).toBe(false);

    clock.advance(60 * 60_000);
    const off = await power(u.headers, 'stop', id);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.status).toBe('STOPPING');
    expect(await now(u.headers, id)).toMatchObject({ status: 'STOPPED', charged: shown.price * 2 });
    expect(fake.instance(vastId)?.actual_status).toBe('exited');
    expect(await h.balance(u.user.id)).toBeCloseTo(100 - shown.price * 2, 4);

    const on = await power(u.headers, 'start', id);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.status).toBe('STARTING');
    expect((await now(u.headers, id))?.status).toBe('RUNNING');
    expect(fake.instance(vastId)?.actual_status).toBe('running');

    const gone = await power(u.headers, 'destroy', id);
    expect(gone.json().data.status).toBe('RELEASING');
    expect((await now(u.headers, id))?.status).toBe('RELEASED');
    expect(fake.instance(vastId)).toBeUndefined();
    const bills = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, id));
    expect(bills.reduce((s, b) => s + b.amount, 0) / 10_000).toBeCloseTo(shown.price * 2, 4);
  });

  it('a vast.ai failure fails the create and charges nothing; a taken offer is refused', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ num_gpus: 1 });
    await refreshOffers(h.t.app.deps.vastai);
    fake.failNext(500, 1);
    const res = await create(u.headers, { offerId: offer.id, label: 'abroad-2', image: FAKE_VAST_IMAGES[1] });
    expect(res.statusCode).toBe(200);
    const [inst] = (await list(u.headers)).filter((i) => i.id === res.json().data.id);
    expect(inst?.status).toBe('FAILED');
    expect(inst?.stopReason).toContain('vast.ai 服务暂时不可用');
    expect(await h.balance(u.user.id)).toBe(100);

    const again = await create(u.headers, {
      offerId: offer.id,
      label: 'abroad-3',
      image: FAKE_VAST_IMAGES[1],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该海外机器已被租用或下架，请选择其他机器');
  });

  it('refuses an offer of a disabled overseas region, charging nothing', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ num_gpus: 1 });
    await refreshOffers(h.t.app.deps.vastai);
    const [place] = await h.t.db.select().from(hosts).where(eq(hosts.driver, 'vastai'));
    const region = eq(regions.id, place?.regionId ?? -1);
    await h.t.db.update(regions).set({ enabled: false }).where(region);
    try {
      const before = fake.requests.length;
      const res = await create(u.headers, { offerId: offer.id, label: 'closed', image: FAKE_VAST_IMAGES[0] });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('该海外机器已被租用或下架，请选择其他机器');
      expect(fake.requests.slice(before).some((r) => r.path.startsWith('/asks/'))).toBe(false);
      expect(await h.balance(u.user.id)).toBe(100);
      expect(await list(u.headers)).toEqual([]);
    } finally {
      await h.t.db.update(regions).set({ enabled: true }).where(region);
    }
    // Enabled again, the same offer sells.
    const ok = await create(u.headers, { offerId: offer.id, label: 'open', image: FAKE_VAST_IMAGES[0] });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses bad input in Chinese and changes nothing', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer();
    await refreshOffers(h.t.app.deps.vastai);
    const before = fake.requests.length;
    const disk = await create(u.headers, {
      offerId: offer.id,
      label: 'x',
      diskSpace: 50,
      image: FAKE_VAST_IMAGES[0],
    });
    expect(disk.statusCode).toBe(400);
    expect(disk.body).toContain('磁盘大小只能是 10 GB');
    const image = await create(u.headers, { offerId: offer.id, label: 'x', image: 'someone/else:1' });
    expect(image.statusCode).toBe(422);
    expect(image.json().message).toBe('该镜像不能用于这台海外机器');
    const poor = await h.funded(0);
    const broke = await create(poor.headers, { offerId: offer.id, label: 'x', image: FAKE_VAST_IMAGES[0] });
    expect(broke.statusCode).toBe(422);
    expect(fake.requests.slice(before).some((r) => r.path.startsWith('/asks/'))).toBe(false);
    expect(await list(u.headers)).toEqual([]);
  });

  it('reconcile releases an instance vast.ai no longer has', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ num_gpus: 1 });
    await refreshOffers(h.t.app.deps.vastai);
    const res = await create(u.headers, { offerId: offer.id, label: 'abroad-4', image: FAKE_VAST_IMAGES[0] });
    const id = res.json().data.id as number;
    const [inst] = (await list(u.headers)).filter((i) => i.id === id);
    expect(inst?.status).toBe('RUNNING');
    // Destroyed behind our back (vast.ai console).
    await fetch(`${fake.url}/instances/${inst?.containerId}/`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${fake.apiKey}` },
    });
    const out = await reconcileOverseas(h.t.app.deps.vastai);
    expect(out.outcomes).toContainEqual({ id, to: 'RELEASED' });
    expect((await list(u.headers)).find((i) => i.id === id)?.status).toBe('RELEASED');
  });

  it('reconcile powers off an instance vast.ai stopped by itself: billed up to then, nothing more', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ num_gpus: 1, dph_total: 0.35 });
    await refreshOffers(h.t.app.deps.vastai);
    const shown = (await marketItems()).list.find((i) => i.skuGpuId === `vast-${offer.id}`) as Item;
    // $0.35/h × 7.2 × 1.3 = 3.276 → 3.28 yuan per hour.
    expect(shown.price).toBe(3.28);
    const res = await create(u.headers, { offerId: offer.id, label: 'abroad-5', image: FAKE_VAST_IMAGES[0] });
    const id = res.json().data.id as number;
    const inst = await now(u.headers, id);
    expect(inst?.status).toBe('RUNNING');
    const vastId = Number(inst?.containerId);

    // Half an hour later vast.ai stops it on its own (host maintenance, the vast.ai console).
    clock.advance(30 * 60_000);
    const stopped = await fetch(`${fake.url}/instances/${vastId}/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'stopped' }),
    });
    expect(stopped.status).toBe(200);
    expect(fake.instance(vastId)?.actual_status).toBe('exited');

    const out = await reconcileOverseas(h.t.app.deps.vastai);
    expect(out.outcomes).toContainEqual({ id, to: 'STOPPED' });
    const after = await now(u.headers, id);
    expect(after).toMatchObject({ status: 'STOPPED', charged: 1.64 });
    const [rental] = await h.t.db.select().from(vastaiRentals).where(eq(vastaiRentals.instanceId, id));
    expect(rental?.vastStatus).toBe('exited');
    expect(await h.balance(u.user.id)).toBeCloseTo(100 - 1.64, 4);

    // Stopped: metering charges nothing more, and a second reconcile changes nothing.
    clock.advance(60 * 60_000);
    await runMetering(h.deps);
    expect((await reconcileOverseas(h.t.app.deps.vastai)).outcomes.some((o) => o.id === id)).toBe(false);
    expect(await now(u.headers, id)).toMatchObject({ status: 'STOPPED', charged: 1.64 });
    expect(await h.balance(u.user.id)).toBeCloseTo(100 - 1.64, 4);
    const bills = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, id));
    expect(bills.reduce((s, b) => s + b.amount, 0) / 10_000).toBeCloseTo(1.64, 4);
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
      t.app.deps.services.market.invalidate();
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
