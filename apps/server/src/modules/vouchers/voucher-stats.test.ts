import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/rows.ts';
import { createTestApp } from '../../test/test-app.ts';
import { type VoucherFigures, voucherFigures, voucherFiguresByScan } from './voucher-stats.repository.ts';
import { compactVoucherDayTotals } from './voucher-stats.task.ts';
import { voucherConfigs, vouchers } from './vouchers.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let configId: number;
let seq = 0;

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** A UTC midnight: expiry days start there, so the edges of days are hit exactly. */
const T0 = Date.parse('2026-12-10T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp({ demo: false });
  const [cfg] = await t.db
    .insert(voucherConfigs)
    .values({ name: '统计券', faceAmount: 1_000_000 })
    .returning({ id: voucherConfigs.id });
  configId = cfg?.id as number;
});
afterAll(() => t.close());

type User = { id: number; tenantId: number };
async function newUser() {
  const { user } = await t.createUser();
  return user as User;
}
/** A voucher of the user's, as an insert's values. */
const voucherOf = (user: User, expiresAt: Date, amount = 100, remaining = amount) => ({
  tenantId: user.tenantId,
  userId: user.id,
  configId,
  code: `S${++seq}-${Math.random().toString(36).slice(2, 8)}`,
  name: '统计券',
  amount,
  remaining,
  expiresAt,
});

/** Offsets from T0 that land on the edges that matter: day starts, a millisecond either side. */
const offset = fc.oneof(
  fc.integer({ min: -12 * DAY, max: 12 * DAY }),
  fc.integer({ min: -12, max: 12 }).chain((d) => fc.constantFrom(d * DAY - 1, d * DAY, d * DAY + 1)),
);

const kept = (userId: number, now: Date) => voucherFigures(t.db, userId, now, new Date(now.getTime() + WEEK));
const scanned = (userId: number, now: Date) =>
  voucherFiguresByScan(t.db, userId, now, new Date(now.getTime() + WEEK));

/** Every moment worth asking at: the given ones, and each voucher's expiry and a week before it. */
async function expectAgreement(userId: number, moments: number[]) {
  const expiries = (
    await t.db.select({ e: vouchers.expiresAt }).from(vouchers).where(eq(vouchers.userId, userId))
  ).flatMap((r) => [r.e.getTime(), r.e.getTime() - WEEK, r.e.getTime() - 1]);
  for (const at of [...moments, ...expiries]) {
    const now = new Date(at);
    const [a, b]: VoucherFigures[] = [await kept(userId, now), await scanned(userId, now)];
    expect(a, `at ${now.toISOString()}`).toEqual(b);
  }
}

describe('the wallet figures kept per expiry day', () => {
  it('agree with a scan of every voucher through issue, use, return, deletion and compaction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: offset, amount: fc.integer({ min: 1, max: 500 }), spent: fc.nat(600) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('spend' as const),
              i: fc.nat(),
              by: fc.integer({ min: -300, max: 300 }),
            }),
            fc.record({ kind: fc.constant('delete' as const), i: fc.nat() }),
            fc.record({ kind: fc.constant('compact' as const) }),
            fc.record({ kind: fc.constant('issue' as const), at: offset }),
          ),
          { maxLength: 8 },
        ),
        fc.array(offset, { minLength: 1, maxLength: 4 }),
        async (issued, steps, moments) => {
          const user = await newUser();
          const issue = (rows: { at: number; amount: number; spent: number }[]) =>
            t.db
              .insert(vouchers)
              .values(
                rows.map((v) =>
                  voucherOf(
                    user,
                    new Date(T0 + v.at),
                    v.amount,
                    Math.max(0, v.amount - Math.min(v.spent, v.amount)),
                  ),
                ),
              );
          // One statement for the batch, as a distribution issues them.
          await issue(issued);
          for (const step of steps) {
            const ids = (
              await t.db.select({ id: vouchers.id }).from(vouchers).where(eq(vouchers.userId, user.id))
            ).map((r) => r.id);
            const id = ids.length ? ids[('i' in step ? step.i : 0) % ids.length] : undefined;
            if (step.kind === 'spend' && id !== undefined)
              await t.db.execute(
                sql`update vouchers set remaining = greatest(0, least(amount, remaining + ${step.by})) where id = ${id}`,
              );
            if (step.kind === 'delete' && id !== undefined)
              await t.db.delete(vouchers).where(eq(vouchers.id, id));
            if (step.kind === 'compact') await compactVoucherDayTotals(t.db);
            if (step.kind === 'issue') await issue([{ at: step.at, amount: 100, spent: 0 }]);
          }
          await expectAgreement(
            user.id,
            moments.map((m) => T0 + m),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('compaction leaves one row per user and day, and drops days that net to nothing', async () => {
    const user = await newUser();
    const at = new Date(T0 + 3 * DAY + 5);
    for (let i = 0; i < 3; i++) await t.db.insert(vouchers).values(voucherOf(user, at));
    await t.db.execute(sql`update vouchers set remaining = 40 where user_id = ${user.id}`);
    const gone = await t.db
      .insert(vouchers)
      .values(voucherOf(user, new Date(T0 + 20 * DAY)))
      .returning({ id: vouchers.id });
    await t.db.delete(vouchers).where(eq(vouchers.id, gone[0]?.id as number));
    const rows = () =>
      rowsOf<{ day: Date; live: number; live_value: string; used: number }>(
        t.db,
        sql`select day, live, live_value, used from voucher_day_totals where user_id = ${user.id} order by day, id`,
      );
    expect((await rows()).length).toBe(6);
    expect(await compactVoucherDayTotals(t.db)).toBeGreaterThanOrEqual(5);
    const after = await rows();
    expect(after.map((r) => [new Date(r.day).toISOString(), r.live, Number(r.live_value), r.used])).toEqual([
      ['2026-12-13T00:00:00.000Z', 3, 120, 0],
    ]);
    await expectAgreement(user.id, [T0, T0 + 3 * DAY, T0 + 4 * DAY]);
  });
});
