import { floorToFen } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendMismatches } from '../../../test/spend.ts';
import { createTestDatabase } from '../../../test/test-app.ts';
import { users } from '../../auth/auth.tables.ts';
import { gpuSkus } from '../../hosts/catalog.tables.ts';
import { hosts, regions } from '../../hosts/hosts.tables.ts';
import { accounts } from '../../ledger/ledger.tables.ts';
import { findUnbalancedAccounts, postLedgerEntries, reconcileAccount } from '../../ledger/ledger.ts';
import { seedOnFirstStart } from '../../system/system.usecases.ts';
import { accruedAt } from '../instances.models.ts';
import { instances } from '../instances.tables.ts';
import {
  at,
  type Case,
  caseArb,
  MIN,
  type Path,
  powerCycle,
  Rollback,
  reference,
  setBased,
  snapshot,
  T0,
} from './metering.property.test-helpers.ts';
import { postedBySql } from './posted-by.repository.ts';

// Issue 15: the set-based metering statement posts exactly what the one-at-a-time JS path
// (metering.reference.test-helpers.ts) posted — ledger rows in the same order with the same
// balances after, account balances, `charged`, hourly bill lines — for random instances,
// rates, balances, power cycles and metering times. Runs on PGlite and on PostgreSQL.
type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let database: Db;
let place: { regionId: number; hostId: number; skuId: number };
beforeAll(async () => {
  database = await createTestDatabase();
  await seedOnFirstStart(database, { demo: false });
  const { db } = database;
  const [region] = await db
    .insert(regions)
    .values({ name: '性质区', code: 'prop', sortOrder: 1 })
    .returning();
  const [host] = await db
    .insert(hosts)
    .values({ regionId: region?.id as number, name: 'prop-host', driver: 'simulated' })
    .returning();
  const [sku] = await db
    .insert(gpuSkus)
    .values({
      hostId: host?.id as number,
      gpuModel: 'RTX 4090',
      memoryGb: 24,
      cpuPerGpu: 8,
      systemDiskGb: 30,
      dataDiskGb: 50,
      hourlyPrice: 19_800,
    })
    .returning();
  place = { regionId: region?.id as number, hostId: host?.id as number, skuId: sku?.id as number };
});
afterAll(() => database.close());

let seq = 0;
/** Committed fixture: three funded users and their instances. */
async function fixture(c: Case) {
  const { db } = database;
  const made = await db
    .insert(users)
    .values(
      c.balances.map(() => {
        seq++;
        return {
          tenantId: 1,
          phone: `139${String(seq).padStart(8, '0')}`,
          username: `p${seq}`,
          passwordHash: 'x',
        };
      }),
    )
    .returning({ id: users.id });
  const userIds = made.map((u) => u.id);
  await db.insert(accounts).values(userIds.map((userId) => ({ userId, tenantId: 1 })));
  // Opening balances through the ledger, so Σ ledger = balance holds from the start.
  await db.transaction((tx) =>
    postLedgerEntries(
      tx,
      userIds.flatMap((userId, k) => {
        const amount = c.balances[k] ?? 0;
        return amount === 0
          ? []
          : [
              {
                userId,
                kind: 'adjustment' as const,
                amount,
                allowNegative: true,
                idempotencyKey: `prop:open:${userId}`,
              },
            ];
      }),
    ),
  );
  const rows = await db
    .insert(instances)
    .values(
      c.insts.map((i, k) => ({
        tenantId: 1,
        userId: userIds[i.owner] as number,
        ...place,
        name: `p${seq}-${k}`,
        image: 'img',
        gpuModel: 'RTX 4090',
        gpuCount: 1,
        billingType: i.billingType as 'hourly' | 'daily',
        hourlyRate: i.hourlyRate,
        noGpuRate: i.noGpuRate,
        status: (i.since === null && i.status !== 'STOPPED' ? 'STOPPED' : i.status) as 'RUNNING',
        rootPasswordEnc: 'x',
        accruedClosed: i.accruedClosed,
        runningSince: i.since === null ? null : new Date(T0 + i.since * 1000),
        voucherHeld: i.voucherHeld,
      })),
    )
    .returning({ id: instances.id });
  return { userIds, ids: rows.map((r) => r.id) };
}

async function play(c: Case, f: { userIds: number[]; ids: number[] }, path: Path) {
  try {
    await database.db.transaction(async (tx) => {
      const returned: number[] = [];
      let last = T0;
      for (const step of [...c.steps].sort((a, b) => at(a) - at(b))) {
        last = Math.max(last, at(step));
        if ('meter' in step) returned.push(await path(tx, f.ids, new Date(step.meter + T0)));
        else
          await powerCycle(
            tx,
            f.ids[step.cycle % f.ids.length] as number,
            step.off,
            step.gap,
            step.switchMode,
          );
      }
      // The ledger's invariants hold after every path: Σ ledger = balances, latest row = balance.
      for (const userId of f.userIds) expect((await reconcileAccount(tx, userId)).balanced).toBe(true);
      // What each spent (kept on the account) = Σ of their bill lines.
      expect(await spendMismatches(tx, f.userIds)).toEqual([]);
      throw new Rollback({ returned, ...(await snapshot(tx, f)) });
    });
  } catch (e) {
    if (e instanceof Rollback) return e.state;
    throw e;
  }
  throw new Error('unreachable');
}

describe('set-based metering = the JS reference path', () => {
  it('postedBySql (the one SQL accrual) = floorToFen(accruedAt) (the JS reference), row by row', async () => {
    // Rates, closed accruals and times off the second and off the fen, a start after `at`
    // (nothing yet) and a stopped row (closed accrual only).
    const rowArb = fc.record({
      hourlyRate: fc.oneof(fc.integer({ min: 0, max: 4_000_000 }), fc.constantFrom(1, 3_000, 39_800)),
      noGpuRate: fc.option(fc.constantFrom(1, 1_000, 5_000), { nil: null }),
      accruedClosed: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000_000 })),
      since: fc.option(fc.integer({ min: -3_600_000, max: 40 * 86_400_000 }), { nil: null }),
      at: fc.integer({ min: 0, max: 40 * 86_400_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 20 }), async (rows) => {
        const input = rows.map((r) => ({
          hourlyRate: r.hourlyRate,
          noGpuRate: r.noGpuRate,
          accruedClosed: r.accruedClosed,
          runningSince: r.since === null ? null : new Date(T0 + r.since),
          at: new Date(T0 + r.at),
        }));
        const values = sql.join(
          input.map(
            (r, k) =>
              sql`(${k}::int, ${r.hourlyRate}::bigint, ${r.noGpuRate}::bigint, ${r.accruedClosed}::bigint,
                   ${r.runningSince?.toISOString() ?? null}::timestamptz, ${r.at.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        );
        const res = (await database.db.execute(sql`
          select k, ${postedBySql('r', sql`r.at`)}::text as posted
          from (values ${values}) as r(k, hourly_rate, nogpu_rate, accrued_closed, running_since, at) order by k`)) as unknown as {
          rows: { posted: string }[];
        };
        expect(res.rows.map((r) => Number(r.posted))).toEqual(
          input.map((r) => floorToFen(accruedAt(r, r.at))),
        );
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60) },
    );
  });

  it('same ledger rows (order, balances after), balances, charged and bill lines for random cases', async () => {
    let charged = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const f = await fixture(c);
        const want = (await play(c, f, reference)) as { returned: number[] };
        const got = (await play(c, f, setBased)) as { returned: number[] };
        expect(got).toEqual(want);
        charged += want.returned.reduce((n, a) => n + a, 0);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60) },
    );
    // The cases did charge something (the property is not vacuous).
    expect(charged).toBeGreaterThan(0);
    expect(await findUnbalancedAccounts(database.db)).toEqual([]);
  });

  it('a repeated run at the same time charges nothing and writes nothing', async () => {
    const c: Case = {
      balances: [1_000, 0, 0],
      insts: [
        {
          owner: 0,
          hourlyRate: 39_800,
          accruedClosed: 0,
          since: 0,
          status: 'RUNNING',
          billingType: 'hourly',
          noGpuRate: null,
          voucherHeld: 500,
        },
        {
          owner: 0,
          hourlyRate: 3_000,
          accruedClosed: 77,
          since: 90,
          status: 'STOPPING',
          billingType: 'hourly',
          // In no-GPU mode (issue 30): its lines are of their own kind, repeated runs alike.
          noGpuRate: 1_000,
          voucherHeld: 0,
        },
      ],
      steps: [{ meter: 95 * MIN + 1_234 }, { meter: 95 * MIN + 1_234 }],
    };
    const f = await fixture(c);
    const got = (await play(c, f, setBased)) as { returned: number[]; ledger: unknown[]; lines: unknown[] };
    expect(got.returned[0]).toBeGreaterThan(0);
    expect(got.returned[1]).toBe(0);
    // The opening balance and one charge per instance; nothing from the second run.
    expect(got.ledger).toHaveLength(3);
    // 08:00 → 09:35 for the first, 08:01:30 → 09:35 for the second: two hours each.
    expect(got.lines).toHaveLength(4);
  });
});
