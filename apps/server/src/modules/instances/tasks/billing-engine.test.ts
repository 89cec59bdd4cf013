import { floorToFen } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { createHostsRepository } from '../../hosts/hosts.repository.ts';
import { instanceEvents, instances } from '../instances.tables.ts';
import { runExpiry, runMetering, runRetention } from './billing-tasks.ts';
import { runReconcile } from './reconcile.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const MIN = 60_000;
const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
async function hourly(yuan: number, host = 'nm-a-l40s-01', gpus = 1) {
  const u = await h.funded(yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf(host),
    instanceName: 'm',
    image: IMAGE,
    gpuAmount: gpus,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { u, id: res.json().data.id as number };
}

describe('metering', () => {
  it('charges floor(rate × seconds / 3600) down to whole fen; split runs equal one run; a repeated run charges nothing', async () => {
    clock.set(T0);
    const a = await hourly(100); // L40S 3.98/h
    const b = await hourly(100);
    // a: metered every minute for 37 min 30 s; b: once at the end.
    for (let m = 1; m <= 37; m++) {
      clock.set(new Date(T0.getTime() + m * MIN));
      await runMetering(h.deps);
    }
    clock.set(new Date(T0.getTime() + 37.5 * MIN));
    await runMetering(h.deps);
    await runMetering(h.deps);
    // 24 875 units accrued: 24 800 posted (whole fen), 75 carried to the next run.
    const expected = floorToFen(Math.floor((39_800 * 2250) / 3600));
    expect((await row(a.id))?.charged).toBe(expected);
    expect((await row(b.id))?.charged).toBe(expected);
    expect(await h.balance(a.u.user.id)).toBe(100 - expected / 10_000);
    expect(await h.balance(b.u.user.id)).toBe(100 - expected / 10_000);
    await h.action(a.u.headers, 'release', a.id);
    await h.action(b.u.headers, 'release', b.id);
  });

  it('never bills CREATING or FAILED instances, and stops accruing at power off', async () => {
    clock.set(T0);
    const { u, id } = await hourly(100);
    clock.advance(10 * MIN);
    await h.action(u.headers, 'power_off', id);
    const charged = (await row(id))?.charged;
    clock.advance(60 * MIN);
    await runMetering(h.deps);
    expect((await row(id))?.charged).toBe(charged);
    await h.action(u.headers, 'release', id);
  });

  it('arrears: at a balance ≤ 0 the instance is powered off with a warning', async () => {
    clock.set(T0);
    const { u, id } = await hourly(4, 'nm-a-l40s-01'); // one hour is 3.98
    clock.advance(61 * MIN);
    await runMetering(h.deps);
    const r = await row(id);
    expect(r?.status).toBe('STOPPED');
    expect(r?.warning).toContain('余额不足');
    expect(r?.stopReason).toContain('余额不足');
    const bal = await h.balance(u.user.id);
    expect(bal).toBeLessThanOrEqual(0);
    expect(bal).toBeGreaterThan(-3.98 / 60 - 0.0001);
    const on = await h.action(u.headers, 'power_on', id);
    expect(on.statusCode).toBe(422);
    await h.action(u.headers, 'release', id);
  });
});

describe('packages', () => {
  it('expire at expires_at: powered off; renewal extends and charges; then it runs again', async () => {
    clock.set(T0);
    const u = await h.funded(1000);
    const created = await h.create(u.headers, {
      machineId: await h.idOf('bj-a-a100-01'),
      instanceName: 'pkg',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    const id = created.json().data.id;
    clock.set(new Date(T0.getTime() + 86_400_000 - 1));
    await runExpiry(h.deps);
    expect((await row(id))?.status).toBe('RUNNING');
    clock.set(new Date(T0.getTime() + 86_400_000));
    await runExpiry(h.deps);
    expect((await row(id))?.status).toBe('STOPPED');
    // A day later the access token has expired: sign a fresh one as a new login would.
    u.headers = {
      ...u.headers,
      authorization: `Bearer ${await h.t.userToken(u.user)}`,
    };
    expect((await h.action(u.headers, 'power_on', id)).json().message).toContain('续费');

    const pricing = await h.t.app.inject({
      method: 'GET',
      url: `/api/v2/package-billing/renewal-pricing/${id}`,
      headers: u.headers,
    });
    expect(pricing.json().data.options.map((o: { amount: number }) => o.amount)).toEqual([
      135, 270, 405, 540, 675, 810,
    ]);
    const renew = await h.t.app.inject({
      method: 'POST',
      url: '/api/v2/package-billing/manual-renewal',
      headers: u.headers,
      payload: { instanceId: id, duration: 2 },
    });
    expect(renew.statusCode, renew.body).toBe(200);
    expect(renew.json().data.expiresAt).toBe(new Date(T0.getTime() + 3 * 86_400_000).toISOString());
    expect(await h.balance(u.user.id)).toBe(1000 - 135 - 270);
    expect((await h.action(u.headers, 'power_on', id)).json().data.status).toBe('STARTING');
    expect((await h.view(u.headers, id)).status).toBe('RUNNING');
    const tooLong = await h.t.app.inject({
      method: 'POST',
      url: '/api/v2/package-billing/manual-renewal',
      headers: u.headers,
      payload: { instanceId: id, duration: 7 },
    });
    expect(tooLong.statusCode).toBe(400);
    await h.action(u.headers, 'release', id);
  });
});

describe('retention', () => {
  it('warns three days before and releases after 15 days stopped', async () => {
    clock.set(T0);
    const { u, id } = await hourly(100);
    await h.action(u.headers, 'power_off', id);
    clock.set(new Date(T0.getTime() + 12 * 86_400_000));
    await runRetention(h.deps);
    expect((await row(id))?.warning).toContain('释放');
    expect((await row(id))?.status).toBe('STOPPED');
    clock.set(new Date(T0.getTime() + 15 * 86_400_000));
    await runRetention(h.deps);
    expect((await row(id))?.status).toBe('RELEASED');
  });
});

describe('reconcile after a crash', () => {
  it('finishes a power off whose container did stop', async () => {
    clock.set(T0);
    const { id } = await hourly(100);
    const r = await row(id);
    const host = await createHostsRepository(h.deps).find(r?.hostId as number);
    await h.deps.hostDrivers.forHost(host as never).stop(r?.containerId as string);
    await h.t.db
      .update(instances)
      .set({ status: 'STOPPING', transitionAt: new Date(T0.getTime() + MIN) })
      .where(eq(instances.id, id));
    clock.set(new Date(T0.getTime() + 10 * MIN));
    await runReconcile(h.deps);
    const after = await row(id);
    expect(after?.status).toBe('STOPPED');
    expect(after?.charged).toBe(floorToFen(Math.floor((39_800 * 600) / 3600)));
    const events = await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, id));
    expect(events.at(-1)?.reason).toContain('对账');
  });
});

describe('billing v2 API', () => {
  it('lists bills, sums them by Shanghai day, summarises and exports xlsx and csv', async () => {
    clock.set(new Date('2026-11-22T15:30:00Z')); // 23:30 in Shanghai
    const u = await h.funded(1000);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('bj-a-a100-01'),
      instanceName: 'bill',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    expect(res.statusCode).toBe(200);
    clock.set(new Date('2026-11-22T16:30:00Z')); // 00:30 next day in Shanghai
    const id = res.json().data.id;
    await h.t.app.inject({
      method: 'POST',
      url: '/api/v2/package-billing/manual-renewal',
      headers: u.headers,
      payload: { instanceId: id, duration: 1 },
    });
    const get = (url: string) => h.t.app.inject({ method: 'GET', url, headers: u.headers });
    const records = (await get('/api/v2/billing/records')).json().data;
    expect(records.total).toBe(2);
    expect(records.list.map((r: { kind: string }) => r.kind)).toEqual(['renewal', 'create']);
    expect((await get('/api/v2/billing/records?kind=renewal')).json().data.total).toBe(1);
    expect((await get('/api/v2/billing/records?from=2026-11-23&to=2026-11-23')).json().data.total).toBe(1);
    const daily = (await get('/api/v2/billing/daily-consumption?days=2')).json().data;
    expect(daily).toEqual([
      { date: '2026-11-22', amount: 135 },
      { date: '2026-11-23', amount: 135 },
    ]);
    expect((await get('/api/v2/billing/summary')).json().data).toMatchObject({
      todaySpend: 135,
      monthSpend: 270,
      totalSpend: 270,
      runningInstances: 1,
      available: 730,
    });
    const one = (await get(`/api/v2/billing/records/${records.list[0].id}`)).json().data;
    expect(one.amount).toBe(135);

    const xlsx = await get('/api/v2/billing/export?format=xlsx');
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    const sheet = wb.getWorksheet('费用明细');
    expect(sheet?.rowCount).toBe(3);
    expect(sheet?.getRow(2).getCell(2).value).toBe('bill');
    const csv = await get('/api/v2/billing/export?format=csv');
    expect(csv.body.split('\r\n')[0]).toContain('账单编号');
    expect(csv.body.split('\r\n')).toHaveLength(4);

    const other = await h.funded(0);
    expect(
      (await h.t.app.inject({ method: 'GET', url: '/api/v2/billing/records', headers: other.headers })).json()
        .data.total,
    ).toBe(0);
    expect(
      (
        await h.t.app.inject({
          method: 'GET',
          url: `/api/v2/billing/records/${one.id}`,
          headers: other.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect((await get('/api/v2/billing/daily-consumption?days=0')).statusCode).toBe(400);
    await h.action(u.headers, 'release', id);
  });
});
