import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import { hostGpus, hostPorts, hosts } from '../../hosts/hosts.tables.ts';
import { initPorts, setHostStatus } from '../../hosts/hosts.usecases.ts';
import { instances } from '../instances.tables.ts';
import {
  createStats,
  invariantProblems,
  runMixedLoad,
  type Send,
  twoReplicas,
} from '../replicas.test-helpers.ts';

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
    // Latency is measured in `npm run bench` (BENCH=creates), not asserted here: on a shared
    // 2-core runner a timing bound fails for reasons that are not the code's.
    await r.drain();
    const hostId = (await r.h.t.db.select().from(hosts).where(eq(hosts.name, 'ah-a-3090-01')))[0]
      ?.id as number;
    const made = await r.h.t.db.select().from(instances).where(eq(instances.hostId, hostId));
    expect(made.map((i) => i.status)).toEqual(Array(8).fill('RUNNING'));
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
  });

  it('creates share the host lock; a host change (port pool, disable) waits for them and they for it', async () => {
    const name = 'ah-a-4090-01';
    const machineId = await r.h.idOf(name);
    const hostId = (await r.h.t.db.select().from(hosts).where(eq(hosts.name, name)))[0]?.id as number;
    const users = await Promise.all(Array.from({ length: 12 }, () => r.h.funded(1000)));
    const actor = { adminId: 1, ip: '127.0.0.1' };
    const hostDeps = r.h.t.app.deps.modules.hosts;
    const creates = users.map((u, i) =>
      create(r.next(), u.headers, {
        machineId,
        instanceName: `host-race-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        ...(i % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
      }),
    );
    // FOR UPDATE of the host amid share-locked creates: a deadlock or a lost port would show here.
    // It starts once the first create is answered (the rest still in flight): started at once,
    // it could commit the disable before any create took the host, and none would be made.
    const pool = Promise.race(creates).then(() => initPorts(hostDeps, actor, hostId));
    const disabled = pool.then(() => setHostStatus(hostDeps, actor, hostId, 'DISABLED'));
    const answers = await Promise.all(creates);
    await disabled;
    expect(
      answers.filter((a) => a.statusCode >= 500).map((a) => a.body),
      'no 5xx',
    ).toEqual([]);
    const made = answers.filter((a) => a.statusCode === 200).length;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(8);
    // Once the disable committed, nothing more is allocated on the host.
    const late = await create(r.next(), (await r.h.funded(1000)).headers, {
      machineId,
      instanceName: 'after-disable',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(late.statusCode).toBeGreaterThanOrEqual(400);
    expect(late.statusCode).toBeLessThan(500);
    await r.drain();
    const held = await r.h.t.db
      .select()
      .from(hostGpus)
      .where(and(eq(hostGpus.hostId, hostId), isNotNull(hostGpus.instanceId)));
    const ports = await r.h.t.db
      .select()
      .from(hostPorts)
      .where(and(eq(hostPorts.hostId, hostId), isNotNull(hostPorts.instanceId)));
    expect(held).toHaveLength(made);
    expect(ports).toHaveLength(2 * made);
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
  });

  it('create, renew and recharge load from both replicas keeps every account = Σ ledger and no GPU or port twice', async () => {
    const send: Send = (method, url, headers, body) =>
      r.next().inject({ method, url, headers, ...(body ? { payload: body } : {}) });
    await runMixedLoad(r.h, send, () => r.drain(), '2 replicas');
  });
});
