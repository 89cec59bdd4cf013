import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { userNotices } from '../../notices/notices.tables.ts';
import { notificationDeliveries } from '../../notices/notifications.tables.ts';
import { instances } from '../instances.tables.ts';
import { runMetering, runRetention } from './billing-tasks.ts';
import { dueLead, runPackageNotices } from './lifecycle-notices.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const DAY = 86_400_000;
const HOST = 'nm-a-l40s-01';
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const noticesOf = async (userId: number, event: string) =>
  h.t.db
    .select()
    .from(userNotices)
    .where(and(eq(userNotices.userId, userId), eq(userNotices.event, event as 'low_balance')))
    .orderBy(userNotices.id);
const create = async (headers: Record<string, string>, billingType: string, duration = 1) => {
  const res = await h.create(headers, {
    machineId: await h.idOf(HOST),
    instanceName: `n-${billingType}`,
    image: IMAGE,
    gpuAmount: 1,
    billingType,
    duration,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};
const statusOf = async (id: number) =>
  (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0]?.status;

describe('lifecycle notices', () => {
  it('due lead: the nearest lead not passed, only when the span was longer', () => {
    expect(dueLead(4 * DAY, 7 * DAY)).toBeNull();
    expect(dueLead(2.5 * DAY, 7 * DAY)).toBe(3);
    expect(dueLead(0.5 * DAY, 7 * DAY)).toBe(1);
    expect(dueLead(0.5 * DAY, 1 * DAY)).toBeNull();
    expect(dueLead(2 * DAY, 2 * DAY)).toBeNull();
    expect(dueLead(0.9 * DAY, 2 * DAY)).toBe(1);
  });

  it('arrears stop: told once when metering powers the instance off, SMS queued by default', async () => {
    clock.set(T0);
    const u = await h.funded(4); // L40S 3.98/h: about an hour
    const id = await create(u.headers, 'hourly');
    clock.set(new Date(T0.getTime() + 61 * 60_000));
    await runMetering(h.deps);
    expect(await statusOf(id)).toBe('STOPPED');
    await runMetering(h.deps);
    const told = await noticesOf(u.user.id, 'arrears_stop');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ instanceId: id, title: '余额不足，实例已关机' });
    expect(told[0]?.body).toContain('n-hourly');
    const queued = await h.t.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.noticeId, told[0]?.id as number));
    expect(queued.map((q) => q.channel)).toEqual(['sms']);
  });

  it('release scheduled: 3 days and 1 day before the retention ends, each once', async () => {
    clock.set(T0);
    const u = await h.funded(100);
    const id = await create(u.headers, 'hourly');
    await h.action(u.headers, 'power_off', id);
    const retention = h.deps.retentionDays * DAY;
    clock.set(new Date(T0.getTime() + retention - 4 * DAY));
    await runRetention(h.deps);
    expect(await noticesOf(u.user.id, 'release_scheduled')).toHaveLength(0);
    clock.set(new Date(T0.getTime() + retention - 2.9 * DAY));
    await runRetention(h.deps);
    await runRetention(h.deps);
    clock.set(new Date(T0.getTime() + retention - 0.9 * DAY));
    await runRetention(h.deps);
    await runRetention(h.deps);
    const told = await noticesOf(u.user.id, 'release_scheduled');
    expect(told.map((n) => n.params)).toEqual([
      expect.objectContaining({ daysBefore: 3 }),
      expect.objectContaining({ daysBefore: 1 }),
    ]);
    expect(told[0]?.body).toContain('释放并删除');
    clock.set(new Date(T0.getTime() + retention + 60_000));
    await runRetention(h.deps);
    expect(await statusOf(id)).toBe('RELEASED');
    expect(await noticesOf(u.user.id, 'release_scheduled')).toHaveLength(2);
  });

  it('package expiring 3 days and 1 day before, expired at the end, each once', async () => {
    clock.set(T0);
    const u = await h.funded(3000);
    const id = await create(u.headers, 'weekly');
    const end = T0.getTime() + 7 * DAY;
    for (const at of [
      end - 3.5 * DAY,
      end - 2.5 * DAY,
      end - 2 * DAY,
      end - 0.5 * DAY,
      end - 0.4 * DAY,
      end + 60_000,
    ]) {
      clock.set(new Date(at));
      await runPackageNotices(h.deps);
    }
    await runPackageNotices(h.deps);
    const expiring = await noticesOf(u.user.id, 'package_expiring');
    expect(expiring.map((n) => n.params.daysBefore)).toEqual([3, 1]);
    expect(expiring[0]?.body).toContain('请及时续费');
    const expired = await noticesOf(u.user.id, 'package_expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]?.instanceId).toBe(id);
  });

  it('create failed and refunded: told once with what came back', async () => {
    clock.set(T0);
    const u = await h.funded(500);
    await h.setHostSettings(HOST, '{"unreachable":true}');
    try {
      await create(u.headers, 'daily');
    } finally {
      await h.setHostSettings(HOST, '{"unreachable":false}');
    }
    const told = await noticesOf(u.user.id, 'create_failed_refunded');
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toMatch(/创建失败.*已退回 ¥\d/);
  });
});
