import type { Instance } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { FAKE_VAST_IMAGES, type FakeVast } from '../hosts/drivers/vastai/fake-vastai.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { billingRecords } from '../instances/instances.tables.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { reconcileOverseas } from './reconcile.usecases.ts';
import { vastaiRentals } from './vastai.tables.ts';
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
    await refreshOffers(h.t.app.deps.modules.vastai);
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
    await refreshOffers(h.t.app.deps.modules.vastai);
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
    await refreshOffers(h.t.app.deps.modules.vastai);
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
    await refreshOffers(h.t.app.deps.modules.vastai);
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
    await refreshOffers(h.t.app.deps.modules.vastai);
    const res = await create(u.headers, { offerId: offer.id, label: 'abroad-4', image: FAKE_VAST_IMAGES[0] });
    const id = res.json().data.id as number;
    const [inst] = (await list(u.headers)).filter((i) => i.id === id);
    expect(inst?.status).toBe('RUNNING');
    // Destroyed behind our back (vast.ai console).
    await fetch(`${fake.url}/instances/${inst?.containerId}/`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${fake.apiKey}` },
    });
    const out = await reconcileOverseas(h.t.app.deps.modules.vastai);
    expect(out.outcomes).toContainEqual({ id, to: 'RELEASED' });
    expect((await list(u.headers)).find((i) => i.id === id)?.status).toBe('RELEASED');
  });

  it('reconcile powers off an instance vast.ai stopped by itself: billed up to then, nothing more', async () => {
    const u = await h.funded(100);
    const offer = fake.addOffer({ num_gpus: 1, dph_total: 0.35 });
    await refreshOffers(h.t.app.deps.modules.vastai);
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

    const out = await reconcileOverseas(h.t.app.deps.modules.vastai);
    expect(out.outcomes).toContainEqual({ id, to: 'STOPPED' });
    const after = await now(u.headers, id);
    expect(after).toMatchObject({ status: 'STOPPED', charged: 1.64 });
    const [rental] = await h.t.db.select().from(vastaiRentals).where(eq(vastaiRentals.instanceId, id));
    expect(rental?.vastStatus).toBe('exited');
    expect(await h.balance(u.user.id)).toBeCloseTo(100 - 1.64, 4);

    // Stopped: metering charges nothing more, and a second reconcile changes nothing.
    clock.advance(60 * 60_000);
    await runMetering(h.deps);
    expect((await reconcileOverseas(h.t.app.deps.modules.vastai)).outcomes.some((o) => o.id === id)).toBe(
      false,
    );
    expect(await now(u.headers, id)).toMatchObject({ status: 'STOPPED', charged: 1.64 });
    expect(await h.balance(u.user.id)).toBeCloseTo(100 - 1.64, 4);
    const bills = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, id));
    expect(bills.reduce((s, b) => s + b.amount, 0) / 10_000).toBeCloseTo(1.64, 4);
  });
});
