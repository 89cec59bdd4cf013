import { yuanToUnits } from '@gpu/shared/money';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { postLedgerEntry } from '../../ledger/ledger.ts';
import { userNotices } from '../../notices/notices.tables.ts';
import { runLowBalance } from './low-balance.task.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

let seq = 0;
const post = (userId: number, yuan: number) =>
  h.t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      userId,
      kind: yuan >= 0 ? 'recharge' : 'adjustment',
      amount: yuanToUnits(yuan),
      idempotencyKey: `lb-test:${++seq}`,
    }),
  );
const told = (userId: number) =>
  h.t.db
    .select()
    .from(userNotices)
    .where(and(eq(userNotices.userId, userId), eq(userNotices.event, 'low_balance')))
    .orderBy(userNotices.id);
const deps = () => h.t.app.deps.modules.billing;

const running = async (yuan: number) => {
  const u = await h.funded(yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: 'lb',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  return u;
};

describe('low balance', () => {
  it('tells once per dip under the threshold, again only after the balance went back above', async () => {
    // A new account at ¥0 that spends nothing is not running low.
    const idle = await h.funded(0);
    await runLowBalance(deps());
    expect(await told(idle.user.id)).toHaveLength(0);
    const u = await running(50);
    await runLowBalance(deps());
    expect(await told(u.user.id)).toHaveLength(0);
    await post(u.user.id, -45); // 5 < 10
    await runLowBalance(deps());
    await runLowBalance(deps());
    expect(await told(u.user.id)).toHaveLength(1);
    expect((await told(u.user.id))[0]?.body).toContain('¥5.00');
    await post(u.user.id, 1); // 6: still under, still the same dip
    await runLowBalance(deps());
    expect(await told(u.user.id)).toHaveLength(1);
    await post(u.user.id, 20); // 26: back above
    await runLowBalance(deps());
    await post(u.user.id, -20); // 6: a new dip
    await runLowBalance(deps());
    const all = await told(u.user.id);
    expect(all.map((n) => n.dedupeKey)).toEqual(['low_balance:1', 'low_balance:2']);
  });

  it('says how many hours the balance lasts at the current spend, and follows the threshold setting', async () => {
    const u = await running(20);
    const put = await h.t.app.inject({
      method: 'PUT',
      url: '/api/user/notification-settings',
      headers: u.headers,
      payload: { lowBalanceThreshold: 30 },
    });
    expect(put.statusCode).toBe(200);
    await runLowBalance(deps());
    const [n] = await told(u.user.id);
    // ¥20 at 3.98/h: 5.0 hours (hoursLeft rounds down to a tenth).
    expect(n?.body).toContain('约可使用 5 小时');
    expect(n?.params).toMatchObject({ available: 20, hourlyBurn: 3.98, hoursLeft: 5 });
    // Threshold 0: off.
    const v = await running(5);
    await h.t.app.inject({
      method: 'PUT',
      url: '/api/user/notification-settings',
      headers: v.headers,
      payload: { lowBalanceThreshold: 0 },
    });
    await runLowBalance(deps());
    expect(await told(v.user.id)).toHaveLength(0);
  });
});
