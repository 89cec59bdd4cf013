import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import { hostGpus, hostPorts, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { instances } from '../instances.tables.ts';
import { runJobSweep } from '../jobs/jobs.usecases.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'nm-a-l40s-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('power actions as jobs on PostgreSQL, two replicas', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    r = await twoReplicas();
  });
  afterAll(() => r.close());

  const post = (app: ReturnType<typeof r.next>, headers: Record<string, string>, name: string, id: number) =>
    app.inject({ method: 'POST', url: `/api/gpu/instance/${name}?instance_uuid=${id}`, headers });

  it('concurrent power off and release of one instance end in one consistent state', async () => {
    const rounds = 6;
    const outcomes: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const u = await r.h.funded(100);
      const res = await r.apps[0]?.inject({
        method: 'POST',
        url: '/api/gpu/instance/create',
        headers: u.headers,
        payload: {
          machineId: await r.h.idOf(HOST),
          instanceName: `race-${i}`,
          image: IMAGE,
          gpuAmount: 1,
          billingType: 'hourly',
        },
      });
      expect(res?.statusCode, res?.body).toBe(200);
      const id = res?.json().data.id as number;
      await r.drain();
      expect((await r.h.t.db.select().from(instances).where(eq(instances.id, id)))[0]?.status).toBe(
        'RUNNING',
      );
      // A slow host on odd rounds: the jobs overlap the other request and the sweep.
      await r.h.setHostSettings(HOST, `{"latencyMs":${i % 2 ? 300 : 0}}`);
      const [off, rel, again] = await Promise.all([
        post(r.apps[0] as never, u.headers, 'power_off', id),
        post(r.apps[1] as never, u.headers, 'release', id),
        post(r.apps[i % 2] as never, u.headers, i % 2 ? 'power_off' : 'release', id),
      ]);
      const answers = [off, rel, again];
      expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      // One transition at a time: a request meeting another's STOPPING/RELEASING is refused in
      // Chinese (409); a release may follow a power off that already finished (STOPPED).
      const ok = answers.filter((a) => a.statusCode === 200);
      const began = ok.map((a) => a.json().data.status as string);
      expect(began.length).toBeGreaterThanOrEqual(1);
      expect(began.every((s) => s === 'STOPPING' || s === 'RELEASING')).toBe(true);
      expect(began.filter((s) => s === 'RELEASING').length).toBeLessThanOrEqual(1);
      expect(began.filter((s) => s === 'STOPPING').length).toBeLessThanOrEqual(1);
      for (const a of answers.filter((x) => x.statusCode !== 200)) {
        expect(a.statusCode).toBe(409);
        expect(a.json().message).toMatch(/[\u4e00-\u9fa5]/);
      }
      // A sweep on top of the kicked job: the lease keeps it from driving the same instance.
      await Promise.all([runJobSweep(r.apps[1]?.deps.modules.instances as never), r.drain()]);
      await r.drain();
      const [inst] = await r.h.t.db.select().from(instances).where(eq(instances.id, id));
      const expected = began.includes('RELEASING') ? 'RELEASED' : 'STOPPED';
      expect(inst).toMatchObject({
        status: expected,
        claimedUntil: null,
        transitionAt: null,
        transitionJob: null,
      });
      outcomes.push(expected);
      const gpus = await r.h.t.db.$count(hostGpus, eq(hostGpus.instanceId, id));
      const ports = await r.h.t.db.$count(hostPorts, eq(hostPorts.instanceId, id));
      const [container] = await r.h.t.db
        .select()
        .from(simulatedContainers)
        .where(eq(simulatedContainers.id, inst?.containerId as string));
      if (expected === 'STOPPED') {
        expect({ gpus, ports, state: container?.state }).toEqual({ gpus: 0, ports: 2, state: 'exited' });
      } else {
        expect({ gpus, ports, container }).toEqual({ gpus: 0, ports: 0, container: undefined });
      }
      // At most one metering charge for this instance, and the account equals its ledger.
      const charges = await r.h.t.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.referenceType, 'instance'), eq(ledgerEntries.referenceId, String(id))));
      expect(charges.length).toBeLessThanOrEqual(1);
      await r.h.balance(u.user.id);
      if (expected === 'STOPPED') {
        await post(r.apps[0] as never, u.headers, 'release', id);
        await r.drain();
      }
    }
    await r.h.setHostSettings(HOST, '{"latencyMs":0}');
    console.info(`PostgreSQL, power off vs release races: ${outcomes.join(', ')}`);
    expect(await invariantProblems(r.h.t.db)).toEqual([]);
  });
});
