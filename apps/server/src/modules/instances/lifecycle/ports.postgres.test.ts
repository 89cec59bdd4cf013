import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import { hostPorts, hosts } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'ah-a-4090-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('extra ports on PostgreSQL, two replicas', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    r = await twoReplicas();
  });
  afterAll(() => r.close());

  type Headers = Record<string, string>;
  const stopped = async (i: number) => {
    const u = await r.h.funded(100);
    const res = await r.h.create(u.headers, {
      machineId: await r.h.idOf(HOST),
      instanceName: `ports-${i}`,
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    await r.h.action(u.headers, 'power_off', id);
    return { headers: u.headers, id };
  };
  const put = (app: ReturnType<typeof r.next>, headers: Headers, id: number, ports: number[]) =>
    app.inject({ method: 'PUT', url: `/api/gpu/instance/${id}/ports`, headers, payload: { ports } });

  it('changes racing each other for a short pool: exactly what fits is taken, the rest get 409, nothing leaks', async () => {
    const made = await Promise.all([0, 1, 2, 3].map(stopped));
    const [host] = await r.h.t.db.select().from(hosts).where(eq(hosts.name, HOST));
    const hostId = host?.id as number;
    // Leave exactly 6 free ports (two instances' worth of 3) and no range left to top up from.
    const free = await r.h.t.db
      .select({ port: hostPorts.port })
      .from(hostPorts)
      .where(and(eq(hostPorts.hostId, hostId), isNull(hostPorts.instanceId)))
      .orderBy(hostPorts.port);
    const blocked = free.slice(6).map((p) => p.port);
    const filler = made[0]?.id as number;
    await r.h.t.db
      .update(hostPorts)
      .set({ instanceId: filler })
      .where(and(eq(hostPorts.hostId, hostId), inArray(hostPorts.port, blocked)));
    const all = await r.h.t.db
      .select({ port: hostPorts.port })
      .from(hostPorts)
      .where(eq(hostPorts.hostId, hostId));
    await r.h.t.db
      .update(hosts)
      .set({ portRangeEnd: Math.max(...all.map((p) => p.port)) })
      .where(eq(hosts.id, hostId));
    try {
      const answers = await Promise.all(made.map((m) => put(r.next(), m.headers, m.id, [6006, 7860, 8000])));
      expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
      for (const a of answers.filter((x) => x.statusCode !== 200)) {
        expect(a.statusCode).toBe(409);
        expect(a.json().message).toContain('端口已分配完');
      }
      const rows = await r.h.t.db
        .select()
        .from(instances)
        .where(
          inArray(
            instances.id,
            made.map((m) => m.id),
          ),
        );
      expect(rows.filter((i) => i.extraPorts.length === 3)).toHaveLength(2);
      expect(rows.filter((i) => i.extraPorts.length === 0)).toHaveLength(2);
    } finally {
      await r.h.t.db
        .update(hostPorts)
        .set({ instanceId: null })
        .where(and(eq(hostPorts.hostId, hostId), inArray(hostPorts.port, blocked)));
      await r.h.t.db
        .update(hosts)
        .set({ portRangeEnd: host?.portRangeEnd as number })
        .where(eq(hosts.id, hostId));
    }
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
    for (const m of made) await r.h.action(m.headers, 'release', m.id);
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
  });

  it('a change racing power on and release of the same instance: one order wins, the rows agree', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const m = await stopped(10 + i);
      const action = i % 2 ? 'power_on' : 'release';
      const [change, act] = await Promise.all([
        put(r.next(), m.headers, m.id, [6006]),
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/${action}?instance_uuid=${m.id}`,
          headers: m.headers,
        }),
      ]);
      await r.drain();
      expect([change.statusCode, act.statusCode]).not.toContain(500);
      // The action always goes through (a change never blocks it); the change only while still off.
      expect(act.statusCode, act.body).toBe(200);
      expect([200, 409]).toContain(change.statusCode);
      outcomes.push(`${action}:${change.statusCode}`);
      expect(await invariantProblems(r.h.t.db)).toEqual([]);
      const [row] = await r.h.t.db.select().from(instances).where(eq(instances.id, m.id));
      if (change.statusCode === 409) expect(row?.extraPorts).toEqual([]);
      if (row?.status !== 'RELEASED') await r.h.action(m.headers, 'release', m.id);
    }
    console.info(`extra ports change vs power action outcomes: ${outcomes.join(', ')}`);
  });
});
