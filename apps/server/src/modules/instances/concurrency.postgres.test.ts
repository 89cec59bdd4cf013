import { yuanToUnits } from '@gpu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../billing/billing.tables.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';
import { IMAGE } from './instances.test-helpers.ts';
import { createStats, invariantProblems, twoReplicas } from './replicas.test-helpers.ts';

const CHINESE = /[\u4e00-\u9fa5]/;

// Real lock contention needs real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('instances on PostgreSQL, two replicas under concurrency', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    r = await twoReplicas();
    // Every GPU for sale, so each host has exactly its 8.
    await r.h.t.db.update(hostGpus).set({ reservedReason: null });
  });
  afterAll(() => r.close());

  const create = (app: ReturnType<typeof r.next>, headers: Record<string, string>, body: object) =>
    app.inject({ method: 'POST', url: '/api/gpu/instance/create', headers, payload: body });

  it('30 concurrent 1-GPU creates on one 8-GPU host: 8 succeed, 22 get a clear 4xx, none a 5xx', async () => {
    const machineId = await r.h.idOf('ah-a-3090-01');
    const users = await Promise.all(Array.from({ length: 30 }, () => r.h.funded(1000)));
    const stats = createStats();
    const answers = await Promise.all(
      users.map((u, i) =>
        stats.time('create', () =>
          create(r.next(), u.headers, {
            machineId,
            instanceName: `burst-${i}`,
            image: IMAGE,
            gpuAmount: 1,
            // Half pay up front (ledger and account lock inside the create), half by the hour.
            ...(i % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
          }),
        ),
      ),
    );
    const s = stats.summary('create');
    console.info(`PostgreSQL, 2 replicas, 30 concurrent creates on one 8-GPU host:\n${stats.table()}`);
    const refused = answers.filter((a) => a.statusCode >= 400);
    expect(
      answers.filter((a) => a.statusCode >= 500).map((a) => a.body),
      'no 5xx',
    ).toEqual([]);
    expect(s.ok).toBe(8);
    expect(s.c4).toBe(22);
    for (const a of refused) {
      expect(a.statusCode).toBeLessThan(500);
      expect(a.json().message).toMatch(CHINESE);
    }
    expect(s.p99).toBeLessThan(2000);
    await r.drain();
    const hostId = (await r.h.t.db.select().from(hosts).where(eq(hosts.name, 'ah-a-3090-01')))[0]
      ?.id as number;
    const made = await r.h.t.db.select().from(instances).where(eq(instances.hostId, hostId));
    expect(made.map((i) => i.status)).toEqual(Array(8).fill('RUNNING'));
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
  });

  it('create, renew and recharge load from both replicas keeps every account = Σ ledger and no GPU or port twice', async () => {
    const N = 16;
    const users = await Promise.all(Array.from({ length: N }, () => r.h.funded(3000)));
    const machines = await Promise.all(
      ['ah-a-4090-01', 'bj-a-a100-01', 'nm-a-l40s-01'].map((n) => r.h.idOf(n)),
    );
    // Each user first owns one daily package to renew (made sequentially, outside the measured load).
    const owned = new Map<number, number>();
    for (const [i, u] of users.entries()) {
      const res = await create(r.next(), u.headers, {
        machineId: await r.h.idOf('gd-b-h100-01'),
        instanceName: `pkg-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'daily',
        duration: 1,
      });
      if (res.statusCode === 200) owned.set(u.user.id, res.json().data.id);
    }
    await r.drain();
    expect(owned.size).toBe(8); // gd-b-h100-01 has 8 GPUs

    const stats = createStats();
    const recharged = new Map<number, number>();
    const ops: Promise<unknown>[] = [];
    for (const [i, u] of users.entries()) {
      for (let k = 0; k < 3; k++) {
        ops.push(
          stats.time('create', () =>
            create(r.next(), u.headers, {
              machineId: machines[(i + k) % machines.length],
              instanceName: `load-${i}-${k}`,
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
            r.next().inject({
              method: 'POST',
              url: '/api/v2/package-billing/manual-renewal',
              headers: u.headers,
              payload: { instanceId: mine, duration: 1 },
            }),
          ),
        );
      }
      for (let k = 0; k < 2; k++) {
        const amount = 100 + i + k;
        ops.push(
          (async () => {
            const qr = await stats.time('qrcode', () =>
              r.next().inject({
                method: 'POST',
                url: '/api/pay/createQrCode',
                headers: u.headers,
                payload: { amount },
              }),
            );
            if (qr.statusCode !== 200) return;
            const paid = await stats.time('pay', () =>
              r.next().inject({ method: 'POST', url: `/api/pay/simulated/${qr.json().data.orderNo}` }),
            );
            if (paid.statusCode === 200) recharged.set(u.user.id, (recharged.get(u.user.id) ?? 0) + amount);
          })(),
        );
      }
    }
    const started = performance.now();
    await Promise.all(ops);
    const wall = Math.round(performance.now() - started);
    await r.drain();
    console.info(`PostgreSQL, 2 replicas, create/renew/recharge load (${wall} ms wall):\n${stats.table()}`);

    for (const op of ['create', 'renew', 'qrcode', 'pay']) {
      expect(stats.summary(op).c5, `${op} 5xx`).toBe(0);
    }
    expect(stats.summary('renew').ok).toBe(owned.size * 3);
    expect(stats.summary('pay').ok).toBe(N * 2);
    expect(stats.summary('create').ok).toBeGreaterThan(0);
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
    // Money from the other side: what each user holds = funded + recharged − what their instances were charged.
    for (const u of users) {
      const [acc] = await r.h.t.db.select().from(accounts).where(eq(accounts.userId, u.user.id));
      const [{ charged } = { charged: 0 }] = await r.h.t.db
        .select({ charged: sql<number>`coalesce(sum(${instances.charged}), 0)::bigint` })
        .from(instances)
        .where(eq(instances.userId, u.user.id));
      expect(acc?.available).toBe(
        yuanToUnits(3000) + yuanToUnits(recharged.get(u.user.id) ?? 0) - Number(charged),
      );
    }
    const stuck = await r.h.t.db.$count(instances, sql`${instances.status} not in ('RUNNING', 'FAILED')`);
    expect(stuck).toBe(0);
  });
});
