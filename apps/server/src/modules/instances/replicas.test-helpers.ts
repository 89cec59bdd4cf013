import { yuanToUnits } from '@gpu/shared';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Clock, systemClock } from '../../platform/clock.ts';
import { openDatabase } from '../../platform/db/client.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { spendMismatches } from '../../test/spend.ts';
import { buildServer, testConfig } from '../../test/test-app.ts';
import { instanceIdOf } from '../hosts/drivers/labels.ts';
import { hostGpus, hostPorts, simulatedContainers } from '../hosts/hosts.tables.ts';
import { accounts } from '../ledger/ledger.tables.ts';
import { findUnbalancedAccounts } from '../ledger/ledger.ts';
import { createInstancesRepository } from './instances.repository.ts';
import { instances } from './instances.tables.ts';

/**
 * Two app instances on one PostgreSQL database, each with its own connection pool (as two
 * server processes would be); requests go to either. PostgreSQL only.
 */
export async function twoReplicas(clock: Clock = systemClock, config: Record<string, string> = {}) {
  const h = await instanceTestApp(clock, config);
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('twoReplicas needs DATABASE_URL');
  // node-postgres answers `execute` with { rows } (this helper is PostgreSQL only).
  const current = (await h.t.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const name = current.rows[0]?.name as string;
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ url: dbUrl.toString() });
  const second = await buildServer({
    config: testConfig({ RATE_LIMITS: 'off', ...config }),
    database,
    clock,
    webDist: '/nonexistent',
  });
  const apps = [h.t.app, second];
  let turn = 0;
  return {
    h,
    apps,
    /** The next replica, round robin. */
    next: () => apps[turn++ % apps.length] as typeof second,
    /** Waits for the provisioning jobs each replica kicked. */
    drain: () => Promise.all(apps.map((a) => a.deps.modules.instances.jobs.drain())),
    close: async () => {
      await second.close();
      await database.close();
      await h.t.close();
    },
  };
}

/** Requests, outcomes and latency per operation. */
export function createStats() {
  const ops = new Map<string, { ms: number[]; ok: number; c4: number; c5: number; other: number }>();
  return {
    async time<R extends Pick<LightMyRequestResponse, 'statusCode'>>(op: string, fn: () => Promise<R>) {
      const s = ops.get(op) ?? { ms: [], ok: 0, c4: 0, c5: 0, other: 0 };
      ops.set(op, s);
      const t0 = performance.now();
      const res = await fn();
      s.ms.push(performance.now() - t0);
      if (res.statusCode < 300) s.ok++;
      else if (res.statusCode < 500) s.c4++;
      else if (res.statusCode < 600) s.c5++;
      else s.other++;
      return res;
    },
    summary(op: string) {
      const s = ops.get(op);
      if (!s) return { requests: 0, ok: 0, c4: 0, c5: 0, p99: 0 };
      const sorted = [...s.ms].sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
      return { requests: s.ms.length, ok: s.ok, c4: s.c4, c5: s.c5, p99: Math.round(p99) };
    },
    table() {
      return [...ops.keys()]
        .map((op) => {
          const s = this.summary(op);
          return `${op.padEnd(10)} requests ${s.requests}, 2xx ${s.ok}, 4xx ${s.c4}, 5xx ${s.c5}, p99 ${s.p99} ms`;
        })
        .join('\n');
    },
  };
}

/**
 * What must hold after any load: balance = Σ ledger for every account; every allocated GPU and
 * port belongs to a live instance and matches what the instance records; no GPU or host port is
 * in two live instances or two running containers of a host. Returns the problems found.
 */
export async function invariantProblems(db: Awaited<ReturnType<typeof instanceTestApp>>['t']['db']) {
  const problems: string[] = [];
  for (const u of await findUnbalancedAccounts(db)) problems.push(`account ${JSON.stringify(u)} ≠ ledger`);
  for (const u of await spendMismatches(db)) problems.push(`spent ${JSON.stringify(u)} ≠ bill lines`);
  const live = await db
    .select()
    .from(instances)
    .where(sql`${instances.status} not in ('RELEASED', 'FAILED')`);
  const liveIds = new Set(live.map((i) => i.id));
  const gpus = await db.select().from(hostGpus).where(isNotNull(hostGpus.instanceId));
  const ports = await db.select().from(hostPorts).where(isNotNull(hostPorts.instanceId));
  for (const g of gpus)
    if (!liveIds.has(g.instanceId as number))
      problems.push(`GPU ${g.hostId}/${g.index} held by dead ${g.instanceId}`);
  for (const p of ports)
    if (!liveIds.has(p.instanceId as number))
      problems.push(`port ${p.hostId}/${p.port} held by dead ${p.instanceId}`);
  const seen = new Map<string, number>();
  for (const i of live) {
    // Pay-as-you-go holds none while off or in no-GPU mode (issue 30); packages always do.
    const holdsGpus = (i.status !== 'STOPPED' && i.noGpuRate === null) || i.billingType !== 'hourly';
    const mine = gpus
      .filter((g) => g.instanceId === i.id)
      .map((g) => g.index)
      .sort();
    if (holdsGpus && mine.join() !== [...i.gpuIndices].sort().join())
      problems.push(`instance ${i.id} records GPUs ${i.gpuIndices} but holds ${mine}`);
    const recorded = [i.sshPort, i.jupyterPort, ...i.extraPorts.map((p) => p.hostPort)].filter(
      (p): p is number => p !== null,
    );
    const heldPorts = ports.filter((p) => p.instanceId === i.id).map((p) => p.port);
    // Pool ports (local hosts): exactly those the instance records, extra ports included.
    if (heldPorts.length > 0 && heldPorts.sort().join() !== [...recorded].sort().join())
      problems.push(`instance ${i.id} records ports ${recorded} but holds ${heldPorts}`);
    for (const key of [
      ...(holdsGpus ? i.gpuIndices.map((x) => `gpu ${i.hostId}/${x}`) : []),
      ...recorded.map((p) => `port ${i.hostId}/${p}`),
    ]) {
      const other = seen.get(key);
      if (other !== undefined) problems.push(`${key} in instances ${other} and ${i.id}`);
      seen.set(key, i.id);
    }
  }
  const running = await db
    .select()
    .from(simulatedContainers)
    .where(and(eq(simulatedContainers.state, 'running')));
  const used = new Map<string, string>();
  for (const c of running) {
    for (const key of [
      ...c.gpuIndices.map((x) => `gpu ${c.hostId}/${x}`),
      ...c.ports.map((p) => `port ${c.hostId}/${p.hostPort}`),
    ]) {
      const other = used.get(key);
      if (other) problems.push(`${key} in running containers ${other} and ${c.name}`);
      used.set(key, c.name);
    }
  }
  // Any container (running or not) of an instance the database no longer wants is an orphan.
  const all = await db.select().from(simulatedContainers);
  const owner = (c: (typeof all)[number]) => instanceIdOf(c.labels);
  const ids = [...new Set(all.map(owner).filter((id): id is number => id !== null))];
  const wanted = new Set(await createInstancesRepository({ db }).liveIds(ids));
  for (const c of all) if (!wanted.has(owner(c) ?? -1)) problems.push(`orphan container ${c.name}`);
  return problems;
}

/** One request to some replica: in-process (`inject`) or a real server process (`fetch`). */
export type Send = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body?: object,
) => Promise<{ statusCode: number; json(): { data: { id: number; orderNo: string } } }>;

/**
 * The create/renew/recharge load both replica tests run: N funded users each own a daily package
 * first (8 fit on gd-b-h100-01), then at once 3 creates, 3 renewals and 2 paid recharges each.
 * `settle` waits until the replicas' provisioning left nothing in CREATING. Afterwards every
 * account equals its ledger and funded + recharged − charged, no GPU or port is held twice.
 */
export async function runMixedLoad(
  h: Awaited<ReturnType<typeof instanceTestApp>>,
  send: Send,
  settle: () => Promise<unknown>,
  label: string,
) {
  const N = 16;
  // Enough for every create and all three renewals whatever order they land in: the load is
  // about locks and invariants, not about running out of money (a refused renewal would be right).
  const FUNDED = 30_000;
  const users = await Promise.all(Array.from({ length: N }, () => h.funded(FUNDED)));
  const machines = await Promise.all(['ah-a-4090-01', 'bj-a-a100-01', 'nm-a-l40s-01'].map((n) => h.idOf(n)));
  const create = (u: (typeof users)[number], body: object) =>
    send('POST', '/api/gpu/instance/create', u.headers, { image: IMAGE, ...body });
  const owned = new Map<number, number>();
  const refused: string[] = [];
  for (const [i, u] of users.entries()) {
    const res = await create(u, {
      machineId: await h.idOf('gd-b-h100-01'),
      instanceName: `pkg-${i}`,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    if (res.statusCode === 200) owned.set(u.user.id, res.json().data.id);
    else refused.push(`${i}: ${res.statusCode} ${JSON.stringify(res.json())}`);
  }
  await settle();
  // The host has 8 GPUs: the 9th and later find it full (its machine leaves the market).
  expect(owned.size, refused.join('\n')).toBe(8);

  const stats = createStats();
  const recharged = new Map<number, number>();
  const renewRefusals: string[] = [];
  const ops: Promise<unknown>[] = [];
  for (const [i, u] of users.entries()) {
    for (let k = 0; k < 3; k++) {
      const body = {
        machineId: machines[(i + k) % machines.length],
        instanceName: `load-${i}-${k}`,
        gpuAmount: 1 + ((i + k) % 2),
        ...(k % 2 ? { billingType: 'hourly' } : { billingType: 'weekly', duration: 1 }),
      };
      ops.push(stats.time('create', () => create(u, body)));
    }
    const mine = owned.get(u.user.id);
    for (let k = 0; mine && k < 3; k++) {
      const body = { instanceId: mine, duration: 1 };
      ops.push(
        stats
          .time('renew', () => send('POST', '/api/v2/package-billing/manual-renewal', u.headers, body))
          .then((res) => {
            if (res.statusCode !== 200) renewRefusals.push(`${res.statusCode} ${JSON.stringify(res.json())}`);
          }),
      );
    }
    for (let k = 0; k < 2; k++) {
      const amount = 100 + i + k;
      ops.push(
        (async () => {
          const qr = await stats.time('qrcode', () =>
            send('POST', '/api/pay/createQrCode', u.headers, { amount }),
          );
          if (qr.statusCode !== 200) return;
          const orderNo = qr.json().data.orderNo;
          const paid = await stats.time('pay', () => send('POST', `/api/pay/simulated/${orderNo}`, {}));
          if (paid.statusCode === 200) recharged.set(u.user.id, (recharged.get(u.user.id) ?? 0) + amount);
        })(),
      );
    }
  }
  const started = performance.now();
  await Promise.all(ops);
  const wall = Math.round(performance.now() - started);
  await settle();
  console.info(`PostgreSQL, ${label}, create/renew/recharge load (${wall} ms wall):\n${stats.table()}`);

  for (const op of ['create', 'renew', 'qrcode', 'pay']) expect(stats.summary(op).c5, `${op} 5xx`).toBe(0);
  expect(stats.summary('renew').ok, renewRefusals.join('\n')).toBe(owned.size * 3);
  expect(stats.summary('pay').ok).toBe(N * 2);
  expect(stats.summary('create').ok).toBeGreaterThan(0);
  expect(await invariantProblems(h.t.db)).toEqual([]);
  // Money from the other side: what each user holds = funded + recharged − what their instances were charged.
  for (const u of users) {
    const [acc] = await h.t.db.select().from(accounts).where(eq(accounts.userId, u.user.id));
    const [{ charged } = { charged: 0 }] = await h.t.db
      .select({ charged: sql<number>`coalesce(sum(${instances.charged}), 0)::bigint` })
      .from(instances)
      .where(eq(instances.userId, u.user.id));
    expect(acc?.available).toBe(
      yuanToUnits(FUNDED) + yuanToUnits(recharged.get(u.user.id) ?? 0) - Number(charged),
    );
  }
  expect(await h.t.db.$count(instances, sql`${instances.status} not in ('RUNNING', 'FAILED')`)).toBe(0);
}
