import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { guardsHelpers, IDLE, MIN, OFF } from './guards.test-helpers.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let g: ReturnType<typeof guardsHelpers>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  g = guardsHelpers(h, clock);
});
afterAll(() => h.t.close());

const events = async (userId: number) => (await g.notices(userId)).map((n) => n.event);
const status = async (headers: Record<string, string>, id: number) => (await h.view(headers, id)).status;

describe('idle auto-shutdown', () => {
  it('warns after the duration less the lead, powers off at the duration, says why', async () => {
    const { u, id } = await g.running('idle');
    expect((await g.put(u.headers, id, { idle: IDLE, schedule: OFF, spendingCap: null })).statusCode).toBe(
      200,
    );
    await g.pass([id], 19, 2);
    expect(await events(u.user.id)).toEqual([]);
    await g.pass([id], 1, 2); // 20 min idle: the warning, 10 min before
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning']);
    const [warning] = await g.notices(u.user.id);
    expect(warning?.body).toContain('保持运行');
    const markers = await g.markers(u.headers);
    expect(markers).toEqual([
      {
        instanceId: id,
        kind: 'idle',
        warned: true,
        shutdownAt: new Date(clock.now().getTime() + 10 * MIN).toISOString(),
      },
    ]);
    await g.pass([id], 9, 2);
    expect(await status(u.headers, id)).toBe('RUNNING');
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning']);
    await g.pass([id], 1, 2); // 30 min idle
    const view = await h.view(u.headers, id);
    expect(view.status).toBe('STOPPED');
    expect(view.stopReason).toBe('因GPU空闲自动关机：GPU利用率连续30分钟低于5%');
    expect((await g.stoppedEvents(id)).map((e) => e.reason)).toEqual([view.stopReason]);
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning', 'idle_shutdown']);
    expect(await g.markers(u.headers)).toEqual([]);
  });

  it('保持运行 postpones: the clock starts again from the click', async () => {
    const { u, id } = await g.running('keep');
    await g.put(u.headers, id, { idle: IDLE, schedule: OFF, spendingCap: null });
    await g.pass([id], 20, 1);
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning']);
    const keep = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/${id}/auto-shutdown/keep-running`,
      headers: u.headers,
    });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().data.pending).toBeNull();
    await g.pass([id], 19, 1); // 39 min since start, 19 since the click
    expect(await status(u.headers, id)).toBe('RUNNING');
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning']);
    await g.pass([id], 1, 1);
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning', 'idle_shutdown_warning']);
    await g.pass([id], 9, 1);
    expect(await status(u.headers, id)).toBe('RUNNING');
    await g.pass([id], 1, 1);
    expect(await status(u.headers, id)).toBe('STOPPED');
  });

  it('a busy GPU after the warning withdraws it; busy or unwatched instances never stop', async () => {
    const { u, id } = await g.running('busy-again');
    const quiet = await g.running('unwatched', 'hourly', u);
    await g.put(u.headers, id, { idle: IDLE, schedule: OFF, spendingCap: null });
    await g.put(u.headers, quiet.id, { idle: IDLE, schedule: OFF, spendingCap: null });
    await g.pass([id], 20, 3);
    expect(await events(u.user.id)).toEqual(['idle_shutdown_warning']);
    await g.pass([id], 1, 60); // busy again
    expect(await g.markers(u.headers)).toEqual([]);
    await g.pass([id], 15, 4);
    expect(await status(u.headers, id)).toBe('RUNNING');
    expect(await status(u.headers, quiet.id)).toBe('RUNNING'); // no samples at all: never idle-stopped
    // At the threshold is not under it.
    const edge = await g.running('edge', 'hourly', u);
    await g.put(u.headers, edge.id, { idle: IDLE, schedule: OFF, spendingCap: null });
    await g.pass([edge.id], 40, 5);
    expect(await status(u.headers, edge.id)).toBe('RUNNING');
    // Samples without GPU figures (nvidia-smi unreadable on the host) are not 0 %: never idle.
    const unread = await g.running('unread', 'hourly', u);
    await g.put(u.headers, unread.id, { idle: IDLE, schedule: OFF, spendingCap: null });
    await g.pass([unread.id], 40, 'unread');
    expect(await status(u.headers, unread.id)).toBe('RUNNING');
  });

  it('the account default guards pay-as-you-go instances without their own settings, not packages', async () => {
    const u = await h.funded(2000);
    const caps = await h.t.app.inject({
      method: 'PUT',
      url: '/api/user/spending-caps',
      headers: u.headers,
      payload: { dailyCap: null, monthlyCap: null, idleDefault: IDLE },
    });
    expect(caps.statusCode, caps.body).toBe(200);
    const hourly = await g.running('default-hourly', 'hourly', u);
    const pkg = await g.running('default-package', 'daily', u);
    const got = (await g.get(u.headers, hourly.id)).json().data;
    expect(got).toMatchObject({ idle: null, effectiveIdle: IDLE });
    await g.pass([hourly.id, pkg.id], 30, 0);
    expect(await status(u.headers, hourly.id)).toBe('STOPPED');
    expect(await status(u.headers, pkg.id)).toBe('RUNNING');
  });

  it('refuses bad settings naming the field, and changes nothing', async () => {
    const { u, id } = await g.running('bad');
    const bad = async (body: unknown, field: string) => {
      const res = await g.put(u.headers, id, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(field);
    };
    await bad(
      { idle: { ...IDLE, idleMinutes: 10 }, schedule: OFF, spendingCap: null },
      '空闲时长（idleMinutes）',
    );
    await bad({ idle: { ...IDLE, idleMinutes: 721 }, schedule: OFF, spendingCap: null }, '空闲时长');
    await bad(
      { idle: { ...IDLE, warnMinutes: 30 }, schedule: OFF, spendingCap: null },
      '提前提醒（warnMinutes）',
    );
    await bad({ idle: { ...IDLE, thresholdPercent: 0 }, schedule: OFF, spendingCap: null }, 'GPU利用率阈值');
    await bad(
      { idle: null, schedule: { mode: 'at', at: '2020-01-01T00:00:00Z' }, spendingCap: null },
      '关机时间',
    );
    await bad({ idle: null, schedule: { mode: 'after', hours: 0 }, spendingCap: null }, '运行时长');
    await bad({ idle: null, schedule: OFF, spendingCap: 0.001 }, '单实例消费上限');
    const after = (await g.get(u.headers, id)).json().data;
    expect(after).toMatchObject({ idle: null, schedule: { mode: 'off' }, spendingCap: null });
    const other = await h.funded(0);
    expect((await g.get(other.headers, id)).statusCode).toBe(404);
  });
});
