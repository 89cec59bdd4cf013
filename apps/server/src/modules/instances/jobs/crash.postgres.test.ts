import type { ChildProcess } from 'node:child_process';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import {
  databaseUrlOf,
  freePort,
  killProcess as killed,
  startServerProcess as startServer,
} from '../../../test/server-process.ts';
import { hostGpus, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { instances } from '../instances.tables.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';
import { runReconcile } from '../tasks/reconcile.ts';

describe.runIf(process.env.DATABASE_URL)('kill -9 during a burst of creates (PostgreSQL)', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    r = await twoReplicas();
    await r.h.t.db.update(hostGpus).set({ reservedReason: null });
    // A slow host, so the kill lands while containers are being made and started.
    await r.h.setHostSettings('ah-a-4090-01', '{"latencyMs":300}');
    await r.h.setHostSettings('ah-a-3090-01', '{"latencyMs":150}');
  });
  afterAll(async () => {
    if (child) await killed(child);
    await r.close();
  });

  it('after restart and reconcile: no orphan container, no leaked GPU or port, every charge backed or refunded', async () => {
    const dbUrl = new URL(await databaseUrlOf(r.h.t.db));
    const port = await freePort();
    child = await startServer(dbUrl.toString(), port);

    const machines = [await r.h.idOf('ah-a-4090-01'), await r.h.idOf('ah-a-3090-01')];
    const users = await Promise.all(Array.from({ length: 40 }, () => r.h.funded(2000)));
    let answered = 0;
    let killedAt = false;
    const post = (u: (typeof users)[number], i: number) =>
      fetch(`http://127.0.0.1:${port}/api/gpu/instance/create`, {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({
          machineId: machines[i % 2],
          instanceName: `kill-${i}`,
          image: IMAGE,
          gpuAmount: 1,
          ...(i % 3 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
        }),
      }).then(
        (res) => {
          answered++;
          return res.status;
        },
        () => 'cut' as const,
      );
    // A first wave at once, then one create every 40 ms until the kill (those are cut mid-way).
    const burst = users.slice(0, 10).map((u, i) => post(u, i));
    const trickle = (async () => {
      for (let i = 10; i < users.length && !killedAt; i++) {
        burst.push(post(users[i] as (typeof users)[number], i));
        await new Promise((res) => setTimeout(res, 40));
      }
    })();
    // Kill once containers are being made: some exist, others are still to come.
    const t0 = Date.now();
    while ((await r.h.t.db.$count(simulatedContainers)) < 1 && Date.now() - t0 < 20_000) {
      await new Promise((res) => setTimeout(res, 10));
    }
    await killed(child);
    killedAt = true;
    await trickle;
    const outcomes = await Promise.all(burst);
    const before = {
      creating: await r.h.t.db.$count(instances, eq(instances.status, 'CREATING')),
      containers: await r.h.t.db.$count(simulatedContainers),
      notRunningContainers: await r.h.t.db.$count(
        simulatedContainers,
        sql`${simulatedContainers.state} <> 'running'`,
      ),
    };
    console.info(
      `kill -9 after ${answered} answers of ${outcomes.length}: ${outcomes.filter((o) => o === 200).length} × 200, ${outcomes.filter((o) => o === 'cut').length} cut; left CREATING ${before.creating}, containers ${before.containers} (${before.notRunningContainers} not running)`,
    );
    expect(before.creating, 'the kill must leave creates in flight').toBeGreaterThan(0);

    // Restart: its provisioning sweep takes over the expired claims.
    child = await startServer(dbUrl.toString(), port);
    const deadline = Date.now() + 45_000;
    while ((await r.h.t.db.$count(instances, eq(instances.status, 'CREATING'))) > 0) {
      if (Date.now() > deadline) throw new Error('creates still CREATING 45 s after the restart');
      await new Promise((res) => setTimeout(res, 250));
    }
    await runReconcile(r.h.deps);
    await killed(child);

    expect(await invariantProblems(r.h.t.db)).toEqual([]);
    const all = await r.h.t.db.select().from(instances);
    console.info(
      `after restart: ${all.filter((i) => i.status === 'RUNNING').length} RUNNING, ${all.filter((i) => i.status === 'FAILED').length} FAILED, ${await r.h.t.db.$count(simulatedContainers)} containers`,
    );
    for (const inst of all) {
      expect(['RUNNING', 'FAILED']).toContain(inst.status);
      const [{ net } = { net: 0 }] = await r.h.t.db
        .select({ net: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)::bigint` })
        .from(ledgerEntries)
        .where(
          and(eq(ledgerEntries.referenceType, 'instance'), eq(ledgerEntries.referenceId, String(inst.id))),
        );
      // A failed create nets to zero; a running one paid exactly what it records.
      expect(Number(net), `instance ${inst.id} ${inst.status}`).toBe(
        inst.status === 'FAILED' ? 0 : 0 - inst.charged,
      );
      if (inst.status === 'RUNNING') {
        const [c] = await r.h.t.db
          .select()
          .from(simulatedContainers)
          .where(eq(simulatedContainers.id, inst.containerId as string));
        expect(c?.state).toBe('running');
      }
    }
    // No charge refers to an instance that does not exist (its create rolled back with it).
    const ids = new Set(all.map((i) => String(i.id)));
    const charges = await r.h.t.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceType, 'instance'));
    expect(charges.filter((c) => !ids.has(c.referenceId as string))).toEqual([]);
  }, 120_000); // starts, kills and restarts real server processes: slow on a loaded runner
});
