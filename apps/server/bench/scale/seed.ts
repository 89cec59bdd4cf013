import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../src/modules/auth/index.ts';
import { BILL_LINES_TALLY } from '../../src/modules/billing/index.ts';
import { INSTANCES_TALLY } from '../../src/modules/instances/index.ts';
import { RECHARGE_ORDERS_TALLY } from '../../src/modules/payments/index.ts';
import { VOUCHERS_TALLY } from '../../src/modules/vouchers/index.ts';
import type { Database, Db } from '../../src/platform/db/client.ts';
import { type SecretBox, secretBoxOf } from '../../src/platform/secret-box.ts';
import { testConfig } from '../../src/test/test-app.ts';
import { voucherConfigsSql } from './customers.ts';
import { ensureTenantsAndRegions } from './fixed.ts';
import { type Job, scaledJobs, whaleJobs } from './jobs.ts';
import { ID_TABLES, type IdTable, SCALE, SCALE_WHALE, type SeedContext, upTo } from './plan.ts';

export { SCALE, SCALE_WHALE } from './plan.ts';

/** Actual row counts of the tables the generator fills. */
export type ScaleCounts = Record<(typeof COUNTED)[number], number>;
const COUNTED = [
  'tenants',
  'regions',
  'hosts',
  'host_gpus',
  'gpu_skus',
  'host_ports',
  'users',
  'accounts',
  'instances',
  'instance_events',
  'simulated_containers',
  'ledger_entries',
  'billing_records',
  'recharge_orders',
  'vouchers',
  'voucher_configs',
  'discounts',
  'audit_log',
  'instance_sample_rollups',
] as const;

/** What the database records of the generator (app_meta 'scale-seed'). */
interface SeedState {
  fraction: number;
  anchor: string;
  base: Record<IdTable, number>;
  whale: boolean;
}
const STATE_KEY = 'scale-seed';

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;
const run = (db: Db, text: string) => db.execute(sql.raw(text));
const secondsSince = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

/**
 * Fills the database (migrated, with its first-start data) with the issue 33 fleet at `fraction`
 * of SCALE. Idempotent and incremental: the fraction reached is recorded; a smaller or equal one
 * does nothing, a larger one writes only index ranges [old·N, new·N) of each table.
 */
export async function seedScale(
  database: Database,
  opts: { fraction: number; log?: (line: string) => void; box?: SecretBox },
): Promise<ScaleCounts> {
  const { db } = database;
  const log = opts.log ?? (() => {});
  if (!(opts.fraction > 0 && opts.fraction <= 1))
    throw new Error(`fraction must be in (0, 1]: ${opts.fraction}`);
  // Whole hosts and whole users: a host's GPUs and a user's rows are derived from its index, so a
  // fraction between two hosts would write GPUs (or ledger rows) of a host (or user) not there yet.
  const fraction = Math.max(1, Math.round(opts.fraction * SCALE.hosts)) / SCALE.hosts;
  if (fraction !== opts.fraction) log(`fraction ${opts.fraction} taken as ${fraction} (whole hosts)`);
  opts = { ...opts, fraction };
  const state = await loadOrStartState(db);
  if (opts.fraction <= state.fraction) {
    log(`already seeded to ${state.fraction}: nothing to do`);
    return countRows(db);
  }
  const ctx = await contextOf(db, state, opts.box);
  const started = performance.now();
  const took = new Map<string, number>();
  const done = await progressMarks(db);
  const runJobs = async (jobs: Job[], from: number, to: number) => {
    for (const job of jobs) {
      const t0 = performance.now();
      // Past the last chunk a crashed run committed: each chunk commits with its mark, so the
      // inserts need no conflict handling (which would cost an extra probe of each unique index).
      const lo = Math.max(upTo(from, job.total), done.get(job.name) ?? 0);
      const hi = upTo(to, job.total);
      for (let a = lo; a < hi; a += job.chunk) {
        const b = Math.min(hi, a + job.chunk);
        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(job.sql(a, b)));
          await tx.execute(
            sql`insert into app_meta (key, value) values (${`${STATE_KEY}:${job.name}`}, ${JSON.stringify({ done: b })}::jsonb)
                on conflict (key) do update set value = excluded.value`,
          );
        });
        if (hi - lo > job.chunk) log(`  ${job.name}: ${b - lo} / ${hi - lo} (${secondsSince(t0)} s)`);
      }
      const table = job.name.split('/')[0] as string;
      took.set(table, (took.get(table) ?? 0) + (performance.now() - t0));
    }
  };
  if (!state.whale) {
    await run(db, voucherConfigsSql(ctx));
    await runJobs(whaleJobs(ctx), 0, 1);
    state.whale = true;
    await saveState(db, state);
  }
  const scaled = scaledJobs(ctx);
  await runJobs(scaled.first, state.fraction, opts.fraction);
  await withPackedBills(db, () =>
    Promise.all(scaled.lanes.map((lane) => runJobs(lane, state.fraction, opts.fraction))),
  );
  state.fraction = opts.fraction;
  await saveState(db, state);
  // What each user spent is kept on the account by the statements that write bill lines; the
  // seed wrote them in bulk, so it sets it as migration 0024 did.
  const spentAt = performance.now();
  await run(
    db,
    `update accounts a set spent = s.total
     from (select user_id, sum(amount) as total from billing_records group by user_id) s
     where a.user_id = s.user_id and a.spent is distinct from s.total`,
  );
  took.set('accounts.spent', performance.now() - spentAt);
  // The history just written lies in days the dashboard may have rolled up: roll them up again.
  await run(db, 'delete from ops_rolled_days');
  await run(db, 'delete from ops_daily_totals');
  // Its rows took ids below tallies already counted: count them again, from a mark that is
  // settled at once (the seed's transactions have all committed; nothing else writes meanwhile).
  for (const t of ['row_tallies', 'row_tally_state', 'row_tally_marks', 'row_tally_bookmarks'])
    await run(db, `delete from ${t}`);
  for (const t of [BILL_LINES_TALLY, RECHARGE_ORDERS_TALLY, VOUCHERS_TALLY, INSTANCES_TALLY])
    await run(
      db,
      `insert into row_tally_marks (tally, taken_at, upto)
       select '${t.name}', now() - interval '1 day', coalesce(max(id), 0) from ${t.table}`,
    );
  const t0 = performance.now();
  await run(db, 'analyze');
  took.set('analyze', performance.now() - t0);
  for (const [name, ms] of took) log(`${name.padEnd(28)} ${(ms / 1000).toFixed(1).padStart(7)} s`);
  log(`seeded to ${opts.fraction} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return countRows(db);
}

/** Row counts of every table the generator fills (exact: count(*)). */
export async function countRows(db: Db): Promise<ScaleCounts> {
  const parts = COUNTED.map((t) => `select '${t}' as t, count(*)::bigint as n from ${t}`).join(' union all ');
  const rows = rowsOf<{ t: string; n: string | number }>(await run(db, parts));
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)])) as ScaleCounts;
}

async function loadOrStartState(db: Db): Promise<SeedState> {
  const [found] = rowsOf<{ value: SeedState }>(
    await db.execute(sql`select value from app_meta where key = ${STATE_KEY}`),
  );
  if (found) return found.value;
  await ensureTenantsAndRegions(db);
  // Id ranges for the whole 100 % taken now, so the app's own rows never land in them later.
  const base = {} as Record<IdTable, number>;
  for (const [table, size] of Object.entries(ID_TABLES) as [IdTable, number][]) {
    const seq = `pg_get_serial_sequence('${table}', 'id')`;
    const [row] = rowsOf<{ b: string }>(
      await run(db, `select greatest(nextval(${seq}), (select coalesce(max(id), 0) + 1 from ${table})) as b`),
    );
    base[table] = Number(row?.b);
    await run(db, `select setval(${seq}, ${base[table] + size})`);
  }
  const anchor = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  const state: SeedState = { fraction: 0, anchor, base, whale: false };
  await db.execute(
    sql`insert into app_meta (key, value) values (${STATE_KEY}, ${JSON.stringify(state)}::jsonb) on conflict do nothing`,
  );
  return state;
}

/**
 * Bill lines are stored at fillfactor 50 so metering's rewrites of the current hour's line stay on
 * their page (migration 0004); past lines are never rewritten, so the generated year is written
 * packed (half the pages and the time) and the table's own setting is put back afterwards.
 */
async function withPackedBills<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const [row] = rowsOf<{ ff: string | null }>(
    await run(
      db,
      `select (select substr(o, 12) from unnest(reloptions) o where o like 'fillfactor=%') as ff
       from pg_class where oid = 'billing_records'::regclass`,
    ),
  );
  await run(db, 'alter table billing_records set (fillfactor = 100)');
  try {
    return await fn();
  } finally {
    await run(
      db,
      row?.ff
        ? `alter table billing_records set (fillfactor = ${Number(row.ff)})`
        : 'alter table billing_records reset (fillfactor)',
    );
  }
}

/** How far each job got (index reached), by job name. */
async function progressMarks(db: Db): Promise<Map<string, number>> {
  const rows = rowsOf<{ key: string; value: { done: number } }>(
    await db.execute(sql`select key, value from app_meta where key like ${`${STATE_KEY}:%`}`),
  );
  return new Map(rows.map((r) => [r.key.slice(STATE_KEY.length + 1), r.value.done]));
}

const saveState = (db: Db, state: SeedState) =>
  db.execute(sql`update app_meta set value = ${JSON.stringify(state)}::jsonb where key = ${STATE_KEY}`);

/** Ids the generators refer to, the one password hash and the sealed instance secrets. */
async function contextOf(db: Db, state: SeedState, box?: SecretBox): Promise<SeedContext> {
  const { tenantIds, regionIds } = await ensureTenantsAndRegions(db);
  const [admin] = rowsOf<{ id: number | null }>(await run(db, 'select min(id) as id from admins'));
  // Sealed under the secret the app will run with (or the tests' one), so start-up re-seals nothing.
  const sealBox =
    box ?? secretBoxOf(testConfig(process.env.APP_SECRET ? { APP_SECRET: process.env.APP_SECRET } : {}));
  return {
    anchor: state.anchor,
    base: state.base,
    tenantIds,
    regionIds,
    adminId: admin?.id ?? null,
    passwordHash: await hashPassword(SCALE_WHALE.password),
    sealedPassword: sealBox.seal('scale-root-password'),
    sealedToken: sealBox.seal(randomBytes(16).toString('hex')),
  };
}
