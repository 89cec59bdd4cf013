import type { ChildProcess } from 'node:child_process';
import { yuanToUnits } from '@gpu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.ts';
import { accounts } from '../billing/billing.tables.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';
import { IMAGE, instanceTestApp } from './instances.test-helpers.ts';
import { createStats, invariantProblems } from './replicas.test-helpers.ts';
import { databaseUrlOf, freePort, killProcess, startServerProcess } from './server-process.test-helpers.ts';

/** An answer of a real server, read once: status and parsed body. */
async function call(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { statusCode: res.status, json: () => JSON.parse(text), text };
}

// Two real server processes (main.ts, tasks on) on one PostgreSQL, as production runs replicas.
describe.runIf(process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    h = await instanceTestApp(systemClock);
    await h.t.db.update(hostGpus).set({ reservedReason: null });
    const url = await databaseUrlOf(h.t.db);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      children.push(await startServerProcess(url, port));
      ports.push(port);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.map((c) => killProcess(c, 'SIGTERM')));
    await h.t.close();
  });

  it('a create/renew/recharge load over both keeps every account = Σ ledger and no GPU or port twice', async () => {
    const N = 16;
    let turn = 0;
    const next = () => ports[turn++ % ports.length] as number;
    const users = await Promise.all(Array.from({ length: N }, () => h.funded(3000)));
    const machines = await Promise.all(
      ['ah-a-4090-01', 'bj-a-a100-01', 'nm-a-l40s-01'].map((n) => h.idOf(n)),
    );
    // Each user first owns a daily package to renew (sequential, outside the measured load).
    const owned = new Map<number, number>();
    for (const [i, u] of users.entries()) {
      const res = await call(next(), 'POST', '/api/gpu/instance/create', u.headers, {
        machineId: await h.idOf('gd-b-h100-01'),
        instanceName: `proc-pkg-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'daily',
        duration: 1,
      });
      if (res.statusCode === 200) owned.set(u.user.id, res.json().data.id);
    }
    expect(owned.size).toBe(8); // gd-b-h100-01 has 8 GPUs

    const stats = createStats();
    const recharged = new Map<number, number>();
    const ops: Promise<unknown>[] = [];
    for (const [i, u] of users.entries()) {
      for (let k = 0; k < 3; k++) {
        ops.push(
          stats.time('create', () =>
            call(next(), 'POST', '/api/gpu/instance/create', u.headers, {
              machineId: machines[(i + k) % machines.length],
              instanceName: `proc-${i}-${k}`,
              image: IMAGE,
              gpuAmount: 1 + ((i + k) % 2),
              ...(k % 2 ? { billingType: 'hourly' } : { billingType: 'weekly', duration: 1 }),
            }),
          ),
        );
      }
      const mine = owned.get(u.user.id);
      for (let k = 0; mine && k < 3; k++) {
        ops.push(
          stats.time('renew', () =>
            call(next(), 'POST', '/api/v2/package-billing/manual-renewal', u.headers, {
              instanceId: mine,
              duration: 1,
            }),
          ),
        );
      }
      for (let k = 0; k < 2; k++) {
        const amount = 100 + i + k;
        ops.push(
          (async () => {
            const qr = await stats.time('qrcode', () =>
              call(next(), 'POST', '/api/pay/createQrCode', u.headers, { amount }),
            );
            if (qr.statusCode !== 200) return;
            const paid = await stats.time('pay', () =>
              call(next(), 'POST', `/api/pay/simulated/${qr.json().data.orderNo}`, {}),
            );
            if (paid.statusCode === 200) recharged.set(u.user.id, (recharged.get(u.user.id) ?? 0) + amount);
          })(),
        );
      }
    }
    const started = performance.now();
    await Promise.all(ops);
    const wall = Math.round(performance.now() - started);
    console.info(
      `PostgreSQL, 2 server processes, create/renew/recharge load (${wall} ms wall):\n${stats.table()}`,
    );

    // The processes' own provisioning jobs take every create out of CREATING.
    const deadline = Date.now() + 60_000;
    while ((await h.t.db.$count(instances, eq(instances.status, 'CREATING'))) > 0) {
      if (Date.now() > deadline) throw new Error('creates still CREATING a minute after the load');
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const op of ['create', 'renew', 'qrcode', 'pay']) expect(stats.summary(op).c5, `${op} 5xx`).toBe(0);
    expect(stats.summary('renew').ok).toBe(owned.size * 3);
    expect(stats.summary('pay').ok).toBe(N * 2);
    expect(stats.summary('create').ok).toBeGreaterThan(0);
    expect(await invariantProblems(h.t.db)).toEqual([]);
    for (const u of users) {
      const [acc] = await h.t.db.select().from(accounts).where(eq(accounts.userId, u.user.id));
      const [{ charged } = { charged: 0 }] = await h.t.db
        .select({ charged: sql<number>`coalesce(sum(${instances.charged}), 0)::bigint` })
        .from(instances)
        .where(eq(instances.userId, u.user.id));
      expect(acc?.available).toBe(
        yuanToUnits(3000) + yuanToUnits(recharged.get(u.user.id) ?? 0) - Number(charged),
      );
    }
    expect(await h.t.db.$count(instances, sql`${instances.status} not in ('RUNNING', 'FAILED')`)).toBe(0);
  }, 120_000);
});
