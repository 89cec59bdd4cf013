import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { guardsHelpers, MIN, OFF } from './guards.test-helpers.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let g: ReturnType<typeof guardsHelpers>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  g = guardsHelpers(h, clock);
});
afterAll(() => h.t.close());

const events = async (userId: number) => (await g.notices(userId)).map((n) => n.event);
/** Headers with a fresh token: the clock moves past the access token's life in these tests. */
const fresh = async (u: { user: { id: number; tenantId: number } }) => ({
  authorization: `Bearer ${await h.t.userToken(u.user)}`,
  'x-tenant-host': 'localhost',
});
const status = async (headers: Record<string, string>, id: number) => (await h.view(headers, id)).status;
/** Sets the clock `s` seconds after `from` and checks. */
const at = async (from: Date, s: number) => {
  clock.set(new Date(from.getTime() + s * 1000));
  return g.check();
};

describe('scheduled shutdown (定时关机)', () => {
  it('warns the lead before the chosen time and powers off at it', async () => {
    const start = clock.now();
    const { u, id } = await g.running('at');
    const when = new Date(start.getTime() + 60 * MIN).toISOString();
    const put = await g.put(u.headers, id, {
      idle: null,
      schedule: { mode: 'at', at: when },
      spendingCap: null,
    });
    expect(put.json().data.pending).toEqual({ kind: 'scheduled', shutdownAt: when, warned: false });
    expect(await g.markers(u.headers)).toEqual([
      { instanceId: id, kind: 'scheduled', shutdownAt: when, warned: false },
    ]);
    await at(start, 49 * 60 + 59);
    expect(await events(u.user.id)).toEqual([]);
    await at(start, 50 * 60);
    expect(await events(u.user.id)).toEqual(['scheduled_shutdown_warning']);
    await at(start, 59 * 60 + 59);
    const headers = await fresh(u);
    expect(await status(headers, id)).toBe('RUNNING');
    await at(start, 60 * 60);
    const view = await h.view(headers, id);
    expect(view.status).toBe('STOPPED');
    expect(view.stopReason).toMatch(/^定时关机/);
    expect(await events(u.user.id)).toEqual(['scheduled_shutdown_warning', 'scheduled_shutdown']);
    // One-shot: powered on again, it keeps running.
    await h.action(headers, 'power_on', id);
    await at(start, 3 * 3600);
    const later = await fresh(u);
    expect(await status(later, id)).toBe('RUNNING');
    expect((await g.get(later, id)).json().data.schedule).toEqual({ mode: 'off', at: null, hours: null });
  });

  it('after N hours of running; cancelled, it keeps running', async () => {
    const start = clock.now();
    const { u, id } = await g.running('after');
    const other = await g.running('cancelled', 'hourly', u);
    await g.put(u.headers, id, { idle: null, schedule: { mode: 'after', hours: 2 }, spendingCap: null });
    await g.put(u.headers, other.id, {
      idle: null,
      schedule: { mode: 'after', hours: 2 },
      spendingCap: null,
    });
    await at(start, 60 * 60);
    const off = await g.put(await fresh(u), other.id, { idle: null, schedule: OFF, spendingCap: null });
    expect(off.statusCode).toBe(200);
    await at(start, 2 * 3600 - 1);
    const headers = await fresh(u);
    expect(await status(headers, id)).toBe('RUNNING');
    await at(start, 2 * 3600);
    expect(await status(headers, id)).toBe('STOPPED');
    expect(await status(headers, other.id)).toBe('RUNNING');
    expect((await g.notices(u.user.id)).filter((n) => n.instanceId === other.id)).toEqual([]);
  });

  it('a time that passed while the instance was off does not stop its next run', async () => {
    const start = clock.now();
    const { u, id } = await g.running('stale');
    const when = new Date(start.getTime() + 30 * MIN).toISOString();
    await g.put(u.headers, id, { idle: null, schedule: { mode: 'at', at: when }, spendingCap: null });
    clock.set(new Date(start.getTime() + 10 * MIN));
    await h.action(u.headers, 'power_off', id);
    clock.set(new Date(start.getTime() + 40 * MIN));
    await h.action(u.headers, 'power_on', id);
    await g.check();
    expect(await status(u.headers, id)).toBe('RUNNING');
    expect((await g.get(u.headers, id)).json().data.schedule).toEqual({ mode: 'off', at: null, hours: null });
    expect(await events(u.user.id)).toEqual([]);
  });
});

describe('spending caps', () => {
  // nm-a-l40s-01: ¥3.98 an hour. ¥1.00 posts at 905 s (floor(39 800 × 905 / 3600) = 10 005 units),
  // not at 904 s (9 994 units: ¥0.99); 80 % (¥0.80) at 724 s, not at 723 s.
  it('per instance: warns at 80 % and stops at the exact cent of its current run', async () => {
    const start = clock.now();
    const { u, id } = await g.running('capped');
    const put = await g.put(u.headers, id, { idle: null, schedule: OFF, spendingCap: 1 });
    expect(put.json().data).toMatchObject({ spendingCap: 1, spentThisRun: 0 });
    await at(start, 723);
    expect(await events(u.user.id)).toEqual([]);
    await at(start, 724);
    expect(await events(u.user.id)).toEqual(['spending_cap_warning']);
    await at(start, 904);
    expect((await g.get(u.headers, id)).json().data.spentThisRun).toBe(0.99);
    expect(await status(u.headers, id)).toBe('RUNNING');
    await at(start, 905);
    const view = await h.view(u.headers, id);
    expect(view.status).toBe('STOPPED');
    expect(view.stopReason).toBe('达到消费上限自动关机：本次运行消费达到¥1.00');
    expect(await events(u.user.id)).toEqual(['spending_cap_warning', 'spending_cap_shutdown']);
    // A new run starts from zero.
    await h.action(u.headers, 'power_on', id);
    const again = clock.now();
    await at(again, 904);
    expect(await status(u.headers, id)).toBe('RUNNING');
  });

  it('per account per day: stops the pay-as-you-go instances at the cap, not the packages', async () => {
    const start = clock.now();
    const u = await h.funded(2000);
    const a = await g.running('day-a', 'hourly', u);
    const b = await g.running('day-b', 'hourly', u);
    const pkg = await g.running('day-pkg', 'daily', u);
    const caps = (payload: object) =>
      h.t.app.inject({ method: 'PUT', url: '/api/user/spending-caps', headers: u.headers, payload });
    const idleDefault = { enabled: false, thresholdPercent: 5, idleMinutes: 60, warnMinutes: 10 };
    const bad = await caps({ dailyCap: 5, monthlyCap: 4, idleDefault });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('每日消费上限（dailyCap）');
    expect((await caps({ dailyCap: 2, monthlyCap: null, idleDefault })).statusCode).toBe(200);
    // Two instances, each ¥1.00 at 905 s: ¥2.00 together. Metering posts part of it as bills.
    clock.set(new Date(start.getTime() + 600_000));
    await runMetering(h.deps);
    await at(start, 723);
    expect(await events(u.user.id)).toEqual([]);
    await at(start, 724);
    expect(await events(u.user.id)).toEqual(['spending_cap_warning']);
    await at(start, 904);
    const got = (
      await h.t.app.inject({ method: 'GET', url: '/api/user/spending-caps', headers: u.headers })
    ).json().data;
    expect(got).toMatchObject({ dailyCap: 2, monthlyCap: null, spentToday: 1.98, spentThisMonth: 1.98 });
    expect(await status(u.headers, a.id)).toBe('RUNNING');
    await at(start, 905);
    expect(await status(u.headers, a.id)).toBe('STOPPED');
    expect(await status(u.headers, b.id)).toBe('STOPPED');
    expect(await status(u.headers, pkg.id)).toBe('RUNNING');
    expect((await h.view(u.headers, a.id)).stopReason).toBe('达到消费上限自动关机：每日消费上限¥2.00');
    expect(await events(u.user.id)).toEqual([
      'spending_cap_warning',
      'spending_cap_shutdown',
      'spending_cap_shutdown',
    ]);
  });
});
