import { yuanToUnits } from '@gpu/shared';
import { addDays, shanghaiToday } from '@gpu/shared/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { users } from '../auth/auth.tables.ts';
import { postLedgerEntry } from '../ledger/index.ts';
import { accounts } from '../ledger/ledger.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { opsDailyTotals, opsRolledDays } from './dashboard.tables.ts';
import { rollUpDays } from './dashboard.usecases.ts';

// 12:00 in Shanghai: yesterday ended 12 hours ago (more than DAY_FINAL_AFTER_MS), today is open.
const NOW = new Date('2026-12-10T04:00:00Z');
const TODAY = shanghaiToday(NOW);
const HOUR = 3_600_000;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let tenantId: number;
let userId: number;

const dash = async (q: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/ops-dashboard?${q}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const recharge = (yuan: number, at: Date, key: string) =>
  t.db.transaction((tx) =>
    postLedgerEntry(tx, { userId, kind: 'recharge', amount: yuanToUnits(yuan), idempotencyKey: key, at }),
  );

/** A tenant of its own with recharges today, two days ago and ten days ago. */
beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock(NOW) });
  admin = await t.adminHeaders();
  const [home] = await t.db.select().from(tenants).limit(1);
  const [tenant] = await t.db
    .insert(tenants)
    .values({ code: 'rollup', name: '汇总租户', config: home?.config as never })
    .returning();
  tenantId = tenant?.id as number;
  const [u] = await t.db
    .insert(users)
    .values({ tenantId, phone: '13600000009', username: 'rollup', passwordHash: 'x' })
    .returning();
  userId = u?.id as number;
  await t.db.insert(accounts).values({ userId, tenantId });
  await recharge(100, new Date(NOW.getTime() - HOUR), 'rollup:1');
  await recharge(50, new Date(NOW.getTime() - 2 * 24 * HOUR), 'rollup:2');
  await recharge(30, new Date(NOW.getTime() - 10 * 24 * HOUR), 'rollup:3');
});
afterAll(() => t.close());

describe('the operations dashboard’s day roll-ups (issue 33)', () => {
  it('rolls up the days that are over, once, and the trend reads them as it summed them live', async () => {
    const live = {
      week: await dash(`tenantId=${tenantId}`),
      quarter: await dash(`tenantId=${tenantId}&days=90`),
    };
    const everyTenant = await dash('days=30');
    expect(live.week.trend[6]).toMatchObject({ date: TODAY, recharge: 100 });
    expect(live.quarter.totals.recharge).toBe(180);
    await t.app.tasks.runNow('operations.roll-up-days');
    const days = (await t.db.select().from(opsRolledDays)).map((r) => r.day).sort();
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toBe(addDays(TODAY, -1));
    expect(days).not.toContain(TODAY);
    const totals = await t.db.select().from(opsDailyTotals).where(eq(opsDailyTotals.tenantId, tenantId));
    expect(totals.map((r) => [r.day, r.recharge]).sort()).toEqual([
      [addDays(TODAY, -10), yuanToUnits(30)],
      [addDays(TODAY, -2), yuanToUnits(50)],
    ]);
    expect(await dash(`tenantId=${tenantId}`)).toEqual(live.week);
    expect(await dash(`tenantId=${tenantId}&days=90`)).toEqual(live.quarter);
    expect(await dash('days=30')).toEqual(everyTenant);
    // Run again: nothing left to do.
    await t.app.tasks.runNow('operations.roll-up-days');
    expect(await t.db.select().from(opsRolledDays)).toHaveLength(90);
  });

  it('takes a rolled-up day from the roll-up and today from the ledger as it is', async () => {
    await recharge(7, new Date(NOW.getTime() - 2 * 24 * HOUR), 'rollup:late');
    await recharge(9, new Date(NOW.getTime() - 30 * 60_000), 'rollup:today');
    const week = (await dash(`tenantId=${tenantId}`)).trend;
    // The day is over and rolled up: a row written into it afterwards is not read again.
    expect(week[4]).toMatchObject({ date: addDays(TODAY, -2), recharge: 50 });
    expect(week[6]).toMatchObject({ date: TODAY, recharge: 109 });
    // Without its roll-up the day is summed live again (the scale generator clears roll-ups so).
    await t.db.delete(opsRolledDays).where(eq(opsRolledDays.day, addDays(TODAY, -2)));
    expect((await dash(`tenantId=${tenantId}`)).trend[4]).toMatchObject({ recharge: 57 });
  });

  it.runIf(process.env.DATABASE_URL)(
    'two replicas rolling up at once share the days out, each day once (PostgreSQL)',
    async () => {
      await t.db.delete(opsRolledDays);
      await t.db.delete(opsDailyTotals);
      const live = await dash(`tenantId=${tenantId}&days=90`);
      const deps = { db: t.db, now: () => NOW };
      const [a, b] = await Promise.all([rollUpDays(deps), rollUpDays(deps)]);
      expect(a.filter((d) => b.includes(d))).toEqual([]);
      expect([...a, ...b].sort()).toEqual((await t.db.select().from(opsRolledDays)).map((r) => r.day).sort());
      expect(a.length + b.length).toBe(90);
      expect(await dash(`tenantId=${tenantId}&days=90`)).toEqual(live);
    },
  );
});
