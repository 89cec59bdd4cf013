import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildServer } from '../src/app/server.ts';
import { createAuthRepository } from '../src/modules/auth/auth.repository.ts';
import { admins } from '../src/modules/auth/auth.tables.ts';
import { prepareDatabase } from '../src/modules/system/system.usecases.ts';
import { systemClock } from '../src/platform/clock.ts';
import { type Database, openDatabase } from '../src/platform/db/client.ts';
import { createTestDatabase, testConfig } from '../src/test/test-app.ts';
import { load } from './load.ts';
import { EXPORT_GOAL_ROWS_PER_S, type ExportFigure, measureExports } from './scale/export.ts';
import { type ScaleFigure, scaleFigures } from './scale/figures.ts';
import { SCALE_WHALE } from './scale/seed.ts';
import { seedInOwnProcess } from './scale/seed-process.ts';

const SECONDS = Number(process.env.SCALE_SECONDS ?? 2);
const WARM_SECONDS = Number(process.env.SCALE_WARM_SECONDS ?? 1);
/** Only the figures whose name matches (a regular expression; "export" for the exports): a quick look at a few. */
const ONLY = process.env.SCALE_ONLY ? new RegExp(process.env.SCALE_ONLY, 'i') : null;
/** As a browser sends them (fetch adds this itself): the answer's coding is part of the figure. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

interface Step {
  fraction: number;
  p99: Map<string, { p99Ms: number; rps: number; goalMs: number }>;
  exports: ExportFigure[];
}

const ms = (x: number) =>
  Number.isNaN(x) ? 'failed' : Number.isFinite(x) ? `${x} ms` : `>${SECONDS * 1000} ms`;
const pct = (f: number) => `${+(f * 100).toFixed(2)} %`;

/** A super administrator of every tenant and its headers (a signed session, as a sign-in gives). */
async function adminHeaders(database: Database, app: Awaited<ReturnType<typeof buildServer>>) {
  const username = 'scale-bench-admin';
  const [found] = await database.db
    .select({ id: admins.id })
    .from(admins)
    .where(sql`${admins.username} = ${username}`);
  const id =
    found?.id ??
    (
      await database.db
        .insert(admins)
        .values({ username, passwordHash: 'x', roles: ['ADMIN'], role: 'SUPER', tenantId: null })
        .returning({ id: admins.id })
    )[0]?.id;
  const sid = randomBytes(12).toString('hex');
  await createAuthRepository({ db: database.db }).createSession('admin', id as number, sid, new Date());
  return {
    authorization: `Bearer ${await app.deps.modules.auth.tokens.sign('admin', id as number, { sid })}`,
  };
}

/**
 * Waits until no statement of the app runs (two looks in a row): requests the load client gave
 * up on at the end of a figure would otherwise still be working in the next one. After 2 s their
 * statements are cancelled (nobody waits for those answers), else a slow figure costs minutes.
 */
async function settle(database: Database) {
  const active = (cancel: boolean) => sql`
    select ${cancel ? sql`pg_cancel_backend(pid)` : sql`pid`} from pg_stat_activity
    where datname = current_database() and backend_type = 'client backend' and state = 'active'
      and pid <> pg_backend_pid()`;
  const since = Date.now();
  let quiet = 0;
  while (quiet < 2 && Date.now() - since < 60_000) {
    const late = Date.now() - since > 2000;
    const res = (await database.db.execute(active(late))) as unknown as { rows: unknown[] };
    quiet = res.rows.length > 0 ? 0 : quiet + 1;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Lets the machine come to rest after generating gigabytes, as a deployment's database is between
 * its bulk loads: PostgreSQL writes its dirty buffers (a checkpoint), the kernel writes its dirty
 * pages (sync), and autovacuum finishes what the load gave it: the figures measure the lists, not
 * the load's after-effects. (The market, which never reads the database, served up to a quarter
 * fewer requests after the full load than after a tenth of it, with and without this step.)
 */
async function restMachine(database: Database, log: (line: string) => void) {
  const t = performance.now();
  // A checkpoint needs a superuser (or pg_checkpoint); without one the kernel's sync still runs.
  await database.db.execute(sql`checkpoint`).catch(() => log('checkpoint refused (not a superuser)'));
  spawnSync('sync');
  const workers = sql`select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`;
  let busy = 0;
  while (performance.now() - t < 180_000) {
    const res = (await database.db.execute(workers)) as unknown as { rows: { n: number }[] };
    busy = res.rows[0]?.n ?? 0;
    if (busy === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(
    `at rest in ${((performance.now() - t) / 1000).toFixed(0)} s${busy ? ` (${busy} autovacuum workers still running)` : ''}`,
  );
}

/** Seeds up to `fraction`, starts the app on it and measures every figure and the exports. */
async function measureAt(database: Database, fraction: number): Promise<Step> {
  const log = (line: string) => console.log(`[${pct(fraction)}] ${line}`);
  let t = performance.now();
  const counts = await seedInOwnProcess(database, fraction, (line) => log(`seed: ${line}`));
  log(`seeded in ${((performance.now() - t) / 1000).toFixed(0)} s: ${counts}`);
  // What autovacuum gives a table that has grown: the visibility map (index-only scans); the seed analyzes.
  t = performance.now();
  await database.db.execute(sql`vacuum`);
  log(`vacuum in ${((performance.now() - t) / 1000).toFixed(0)} s`);

  const app = await buildServer({
    config: testConfig({ RATE_LIMITS: 'off' }),
    database,
    clock: systemClock,
    webDist: '/nonexistent',
  });
  // What a deployment's scheduled tasks keep done (the bench runs none of them during the figures).
  t = performance.now();
  await app.tasks.runNow('operations.roll-up-days');
  for (const name of app.tasks.names().filter((n) => n.startsWith('tally.'))) await app.tasks.runNow(name);
  log(`dashboard day roll-ups and list tallies in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await restMachine(database, log);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  const get = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${base}${path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: unknown };
  };
  try {
    // The whale signs in as a customer does, on its tenant's domain.
    const domain = (await database.db.execute(sql`
      select d.host from users u join tenant_domains d on d.tenant_id = u.tenant_id
      where u.phone = ${SCALE_WHALE.phone} order by d.host limit 1`)) as unknown as {
      rows: { host: string }[];
    };
    const tenantHost = domain.rows[0]?.host ?? 'localhost';
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-host': tenantHost },
      body: JSON.stringify({ phone: SCALE_WHALE.phone, password: SCALE_WHALE.password }),
    });
    if (login.status !== 200) throw new Error(`whale login: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const customer = { ...BROWSER, 'x-tenant-host': tenantHost, authorization: `Bearer ${token}` };
    const figures: ScaleFigure[] = (
      await scaleFigures(get, {
        visitor: { ...BROWSER, 'x-tenant-host': 'localhost' },
        customer,
        admin: { ...BROWSER, ...(await adminHeaders(database, app)) },
        phone: SCALE_WHALE.phone,
      })
    ).filter((f) => !ONLY || ONLY.test(f.name));
    const p99 = new Map<string, { p99Ms: number; rps: number; goalMs: number }>();
    for (const f of figures) {
      const r = await load(base, {
        headers: f.headers,
        requests: f.paths.map((path) => ({ method: 'GET', path })),
        seconds: SECONDS,
        warmSeconds: WARM_SECONDS,
      }).catch((err: Error) => err);
      await settle(database);
      const detail = f.detail ? ` [${f.detail}]` : '';
      if (r instanceof Error) {
        // An error answer or a timeout: the figure fails, the others are still measured.
        p99.set(f.name, { p99Ms: Number.NaN, rps: 0, goalMs: f.goalMs });
        log(`${f.name}${detail}: FAILED: ${r.message}`);
        continue;
      }
      // None answered within the measured seconds: the p99 is longer than they are (shown as such).
      const p99Ms = r.completed === 0 ? Number.POSITIVE_INFINITY : r.p99Ms;
      p99.set(f.name, { p99Ms, rps: r.requestsPerSec, goalMs: f.goalMs });
      log(`${f.name}${detail}: p99 ${ms(p99Ms)}, ${r.requestsPerSec} req/s`);
    }
    const exports = !ONLY || ONLY.test('bills export') ? await measureExports(base, customer) : [];
    for (const e of exports)
      log(`bills export ${e.format}: ${e.rows} rows at ${e.rowsPerSec} rows/s, peak RSS ${e.peakRssMb} MB`);
    return { fraction, p99, exports };
  } finally {
    await app.close();
  }
}

function table(steps: [Step | null, Step]): string[] {
  const [small, big] = steps;
  const head = (a: string, b: string, c: string, d: string, e: string, f: string) =>
    `${a.padEnd(52)} ${b.padStart(9)} ${c.padStart(11)} ${d.padStart(11)} ${e.padStart(7)} ${f.padStart(4)}`;
  const lines = [
    head(
      'figure',
      'goal',
      small ? `p99 ${pct(small.fraction)}` : '-',
      `p99 ${pct(big.fraction)}`,
      'ratio',
      'met',
    ),
  ];
  let met = 0;
  let all = 0;
  for (const [name, b] of big.p99) {
    const s = small?.p99.get(name);
    const ok = b.p99Ms <= b.goalMs && (s?.p99Ms ?? 0) <= b.goalMs;
    all++;
    if (ok) met++;
    const ratio =
      s && s.p99Ms > 0 && Number.isFinite(s.p99Ms + b.p99Ms) ? (b.p99Ms / s.p99Ms).toFixed(2) : '-';
    lines.push(head(name, `${b.goalMs} ms`, s ? ms(s.p99Ms) : '-', ms(b.p99Ms), ratio, ok ? 'yes' : 'NO'));
  }
  for (const e of big.exports) {
    const s = small?.exports.find((x) => x.format === e.format);
    const ok = e.met && (s?.met ?? true);
    all++;
    if (ok) met++;
    const ratio = s ? (e.rowsPerSec / s.rowsPerSec).toFixed(2) : '-';
    lines.push(
      head(
        `bills export ${e.format} (${e.rows} rows), rows/s`,
        `${EXPORT_GOAL_ROWS_PER_S / 1000}k/s`,
        s ? String(s.rowsPerSec) : '-',
        String(e.rowsPerSec),
        ratio,
        ok ? 'yes' : 'NO',
      ),
      `    peak RSS ${s ? `${s.peakRssMb} MB / ` : ''}${e.peakRssMb} MB; RSS growth ${e.growthMb} MB for ${e.rows} rows, ${e.partGrowthMb} MB for ${e.partRows} rows (constant memory: ${e.growthMb <= e.partGrowthMb + 32 ? 'yes' : 'NO'})`,
    );
  }
  lines.push(`${met} of ${all} figures meet their goal (at both sizes)`);
  return lines;
}

/**
 * Issue 33: every list, summary and export of the customer console and the back office on a
 * generated large deployment (bench/scale/seed.ts), at a tenth of its size and at its full
 * size, p99 with 50 concurrent clients; printed side by side with the goal and the ratio.
 * PostgreSQL only (DATABASE_URL); SCALE_FRACTION_MAX (default 1) scales the larger size down
 * for a quick run, SCALE_SECONDS / SCALE_WARM_SECONDS set each figure's duration (2 s / 1 s).
 * SCALE_REUSE=1 measures DATABASE_URL itself (seeded by npm run seed:scale, kept afterwards) at
 * its size topped up to SCALE_FRACTION_MAX, once: a quick look while working on one query.
 */
export async function benchScale(): Promise<string[]> {
  if (!process.env.DATABASE_URL)
    return [
      'scale figures (issue 33) need PostgreSQL: scripts/with-postgres.sh env BENCH=scale npm run bench',
    ];
  const max = Number(process.env.SCALE_FRACTION_MAX ?? 1);
  if (!(max > 0 && max <= 1)) throw new Error('SCALE_FRACTION_MAX must be in (0, 1]');
  const started = performance.now();
  const reuse = process.env.SCALE_REUSE === '1';
  const database = reuse ? await openDatabase({ url: process.env.DATABASE_URL }) : await createTestDatabase();
  try {
    if (reuse) await database.migrate();
    await prepareDatabase(database, { demo: true, admin: { username: 'admin' } });
    const small = reuse ? null : await measureAt(database, max / 10);
    const big = await measureAt(database, max);
    const minutes = ((performance.now() - started) / 60_000).toFixed(1);
    return [
      `scale benchmark (issue 33, PostgreSQL): ${small ? `${pct(small.fraction)} and ` : ''}${pct(big.fraction)} of the generated deployment; 50 connections, each figure ${SECONDS} s after ${WARM_SECONDS} s of warm-up; whole run ${minutes} min`,
      ...table([small, big]),
    ];
  } finally {
    await database.close();
  }
}
