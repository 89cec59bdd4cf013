import { FEN, floorToFen } from '@gpu/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { postLedgerEntry } from '../../ledger/ledger.ts';
import { accruedAt } from '../instances.models.ts';
import { billingRecords, instances } from '../instances.tables.ts';
import { runMetering } from '../tasks/billing-tasks.ts';

// Issue 10: whole-fen postings with the remainder carried, hourly bill lines that tile,
// one refused posting no longer stopping the batch. Runs on PGlite and on PostgreSQL.
const T0 = new Date('2026-11-22T08:40:30Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const MIN = 60_000;
const at = (iso: string) => new Date(`2026-11-22T${iso}Z`);
const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
async function hourly(yuan: number, host: string) {
  const u = await h.funded(yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf(host),
    instanceName: 'meter',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { u, id: res.json().data.id as number };
}
/** Headers with a token signed now: the schedules span hours, past an access token's life. */
const fresh = async (u: Awaited<ReturnType<typeof h.funded>>) => ({
  ...u.headers,
  authorization: `Bearer ${await h.t.userToken(u.user)}`,
});
const charges = async (userId: number) =>
  (
    await h.t.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'charge')))
  ).map((r) => -r.amount);
const lines = (id: number) =>
  h.t.db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.instanceId, id), eq(billingRecords.kind, 'metering')))
    .orderBy(asc(billingRecords.periodStart));

describe('metering posts whole fen and carries the remainder', () => {
  it('half a fen a minute: nothing posted after one minute, one fen after two; total = floor-to-fen of the exact accrual', async () => {
    clock.set(T0);
    const { u, id } = await hourly(100, 'bj-a-a100-01');
    // 0.30 yuan/h = 50 units (half a fen) a minute.
    await h.t.db.update(instances).set({ hourlyRate: 3_000 }).where(eq(instances.id, id));
    const seen: number[] = [];
    for (let m = 1; m <= 37; m++) {
      clock.set(new Date(T0.getTime() + m * MIN + 7_000)); // off the minute: sub-unit accrual too
      await runMetering(h.deps);
      const r = await row(id);
      if (!r) throw new Error('instance vanished');
      const exact = accruedAt(r, clock.now());
      // Never more than accrued; the remainder kept is under one fen.
      expect(r.charged).toBe(floorToFen(exact));
      expect(exact - r.charged).toBeLessThan(FEN);
      seen.push(r.charged);
    }
    expect(seen.slice(0, 3)).toEqual([0, 100, 100]);
    const posted = await charges(u.user.id);
    expect(posted.every((a) => a > 0 && a % FEN === 0)).toBe(true);
    const exact = Math.floor((3_000 * (37 * 60 + 7)) / 3600); // 1 855 units
    expect(posted.reduce((n, a) => n + a, 0)).toBe(floorToFen(exact));
    expect(await h.balance(u.user.id)).toBe(100 - floorToFen(exact) / 10_000);
    // The same run again posts nothing (the ledger key and the due filter).
    expect((await runMetering(h.deps)).charged).toBe(0);
    await h.action(u.headers, 'release', id);
  });
});

/** Runs one schedule: meters at `meterAt`, powers off/on at the given times. */
async function schedule(meterAt: Date[], power: { off: Date; on: Date }[]) {
  clock.set(T0);
  const { u, id } = await hourly(1000, 'nm-a-l40s-01');
  const events = [
    ...meterAt.map((t) => ({ t, what: 'meter' as const })),
    ...power.flatMap((p) => [
      { t: p.off, what: 'power_off' as const },
      { t: p.on, what: 'power_on' as const },
    ]),
  ].sort((a, b) => a.t.getTime() - b.t.getTime());
  for (const e of events) {
    clock.set(e.t);
    if (e.what === 'meter') await runMetering(h.deps);
    else expect((await h.action(await fresh(u), e.what, id)).statusCode).toBe(200);
  }
  return { u, id };
}

describe('one bill line per instance per UTC hour', () => {
  const power = [
    { off: at('09:20:00'), on: at('09:35:00') }, // off and on within one hour: still one line
    { off: at('10:30:00'), on: at('11:10:00') }, // off across an hour: a gap while stopped
  ];
  const end = at('11:20:00');
  const everyMinute = [
    ...Array.from(
      { length: Math.floor((end.getTime() - T0.getTime()) / MIN) },
      (_, k) => new Date(T0.getTime() + (k + 1) * MIN),
    ),
    end,
  ];
  let perMinute: Awaited<ReturnType<typeof lines>> = [];

  it('tiles exactly: each line ends where the next starts while running, across hours and power off/on', async () => {
    const { u, id } = await schedule(everyMinute, power);
    perMinute = await lines(id);
    expect(
      perMinute.map((l) => [
        l.meterHour?.toISOString(),
        l.periodStart.toISOString(),
        l.periodEnd.toISOString(),
      ]),
    ).toEqual([
      ['2026-11-22T08:00:00.000Z', '2026-11-22T08:40:30.000Z', '2026-11-22T09:00:00.000Z'],
      ['2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z', '2026-11-22T10:30:00.000Z'],
      ['2026-11-22T11:00:00.000Z', '2026-11-22T11:10:00.000Z', '2026-11-22T11:20:00.000Z'],
    ]);
    const total = perMinute.reduce((n, l) => n + l.amount, 0);
    expect(total).toBe((await row(id))?.charged);
    expect((await charges(u.user.id)).reduce((n, a) => n + a, 0)).toBe(total);
    expect(perMinute.every((l) => l.amount % FEN === 0)).toBe(true);
    // 3.98/h: the first line is 19.5 min of it, floored to fen (13 265 units → 13 200).
    expect(perMinute[0]?.amount).toBe(floorToFen(Math.floor((39_800 * 1170) / 3600)));
    await h.action(await fresh(u), 'release', id);
  });

  it('comes out the same when metering runs rarely (split invariance of the lines)', async () => {
    const rare = [at('08:41:00'), at('09:37:00'), at('10:05:00'), at('11:20:00')];
    const { u, id } = await schedule(rare, power);
    const got = await lines(id);
    // Periods end at the last charge, so compare the amounts and the hours; the ends of the
    // hours that completed are the same hour boundaries.
    expect(got.map((l) => [l.meterHour?.toISOString(), l.amount])).toEqual(
      perMinute.map((l) => [l.meterHour?.toISOString(), l.amount]),
    );
    expect(got[0]?.periodEnd.toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(got.at(-1)?.periodEnd.toISOString()).toBe(end.toISOString());
    await h.action(await fresh(u), 'release', id);
  });
});

describe('bill line storage', () => {
  it('leaves half of each page free, so the minute-by-minute rewrites of a line stay on its page', async () => {
    const res = (await h.t.db.execute(
      sql`select reloptions from pg_class where relname = 'billing_records'`,
    )) as unknown as { rows: { reloptions: string[] | string | null }[] };
    expect(String(res.rows[0]?.reloptions)).toContain('fillfactor=50');
  });
});

describe('a refused posting no longer stops the batch', () => {
  it('charges the others, logs and counts the one that failed, and logs a failed arrears power-off', async () => {
    clock.set(T0);
    const good = await hourly(100, 'bj-a-a100-01');
    const bad = await hourly(100, 'bj-a-a100-01');
    // Poison the exact ledger key bad's first charge (at 10 min) will use, with a different
    // amount: the ledger refuses that posting, which used to roll the whole batch back.
    const rate = (await row(bad.id))?.hourlyRate as number;
    const first = floorToFen(Math.floor((rate * 600) / 3600));
    await h.t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: bad.u.user.id,
        kind: 'charge',
        amount: -1,
        idempotencyKey: `instance:${bad.id}:meter:0-${first}`,
      }),
    );
    const logged: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      warn: (obj: Record<string, unknown>, msg: string) => logged.push({ level: 'warn', obj, msg }),
      error: (obj: Record<string, unknown>, msg: string) => logged.push({ level: 'error', obj, msg }),
    };
    clock.set(new Date(T0.getTime() + 10 * MIN));
    const res = await runMetering({ ...h.deps, log: log as never });
    expect(res.failed).toBe(1);
    expect((await row(good.id))?.charged).toBe(first);
    expect((await row(bad.id))?.charged).toBe(0);
    const failure = logged.find((l) => l.level === 'error');
    expect(failure?.obj).toMatchObject({ instanceId: bad.id, userId: bad.u.user.id });

    // Arrears whose power-off fails (host offline) is logged, not swallowed.
    const left = Math.round((await h.balance(good.u.user.id)) * 10_000);
    await h.t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: good.u.user.id,
        kind: 'charge',
        amount: -left,
        idempotencyKey: `test:drain:${good.id}`,
      }),
    );
    await h.setHostSettings('bj-a-a100-01', '{"unreachable":true}');
    logged.length = 0;
    clock.set(new Date(T0.getTime() + 12 * MIN));
    const second = await runMetering({ ...h.deps, log: log as never });
    expect(second.arrears).toBeGreaterThanOrEqual(1);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'arrears power-off failed',
        obj: expect.objectContaining({ instanceId: good.id, userId: good.u.user.id }),
      }),
    );
    expect((await row(good.id))?.status).toBe('RUNNING');
    await h.setHostSettings('bj-a-a100-01', '{"unreachable":false}');
  });
});

describe('metering lanes', () => {
  it('a lane that cannot reach the database fails the run only once every other lane has ended', async () => {
    let calls = 0;
    let otherEnded = false;
    const db = {
      // The first lane's transaction fails at once; the other's ends 200 ms later, with nothing due.
      transaction: async () => {
        if (++calls === 1) throw new Error('database away');
        await new Promise((r) => setTimeout(r, 200));
        otherEnded = true;
        return 0;
      },
    };
    await expect(runMetering({ ...h.deps, db } as never, { lanes: 2 })).rejects.toThrow('database away');
    expect(calls).toBe(2);
    expect(otherEnded).toBe(true);
  });
});
