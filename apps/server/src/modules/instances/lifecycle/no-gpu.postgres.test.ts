import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldGpusOf, IMAGE } from '../../../test/instances.ts';
import { hostGpus, hosts } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'bj-a-a100-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)(
  'no-GPU power on racing a normal power on and a create, PostgreSQL',
  () => {
    let r: Awaited<ReturnType<typeof twoReplicas>>;
    beforeAll(async () => {
      r = await twoReplicas();
    });
    afterAll(() => r.close());

    const create = (app: ReturnType<typeof r.next>, headers: Record<string, string>, name: string) =>
      r.h.idOf(HOST).then((machineId) =>
        app.inject({
          method: 'POST',
          url: '/api/gpu/instance/create',
          headers,
          payload: { machineId, instanceName: name, image: IMAGE, gpuAmount: 1, billingType: 'hourly' },
        }),
      );
    const idleGpus = async () => {
      const [host] = await r.h.t.db.select().from(hosts).where(eq(hosts.name, HOST));
      return (
        await r.h.t.db
          .select()
          .from(hostGpus)
          .where(
            and(
              eq(hostGpus.hostId, host?.id as number),
              isNull(hostGpus.instanceId),
              isNull(hostGpus.reservedReason),
            ),
          )
      ).length;
    };
    const powerOn = (headers: Record<string, string>, id: number, query: string) =>
      r
        .next()
        .inject({ method: 'POST', url: `/api/gpu/instance/power_on?instance_uuid=${id}${query}`, headers });

    it('one power on wins; no-GPU mode leaves the freed GPU to the create; each GPU held once', async () => {
      const seen = new Set<string>();
      for (let round = 0; round < 4; round++) {
        const mine: Array<{ id: number; headers: Record<string, string> }> = [];
        const owner = await r.h.funded(100);
        const made = await create(r.apps[0] as never, owner.headers, `nogpu-${round}`);
        expect(made.statusCode, made.body).toBe(200);
        const id = made.json().data.id as number;
        mine.push({ id, headers: owner.headers });
        await r.drain();
        await r.h.action(owner.headers, 'power_off', id);
        // Everything idle is taken but one GPU: the one the instance left.
        const filler = await r.h.funded(1000);
        while ((await idleGpus()) > 1) {
          const f = await create(r.apps[0] as never, filler.headers, `fill-${round}`);
          expect(f.statusCode, f.body).toBe(200);
          mine.push({ id: f.json().data.id, headers: filler.headers });
        }
        await r.drain();
        const racer = await r.h.funded(1000);
        // A slow host on odd rounds: the jobs overlap the other requests.
        await r.h.setHostSettings(HOST, `{"latencyMs":${round % 2 ? 200 : 0}}`);
        const [noGpu, normal, bought] = await Promise.all([
          powerOn(owner.headers, id, '&mode=nogpu'),
          powerOn(owner.headers, id, ''),
          create(r.next(), racer.headers, `race-${round}`),
        ]);
        await r.drain();
        const answers = [noGpu, normal, bought];
        expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
        // Exactly one power on of the instance went through; the other was refused.
        expect([noGpu.statusCode, normal.statusCode].filter((s) => s === 200)).toHaveLength(1);
        expect([noGpu.statusCode, normal.statusCode].filter((s) => s === 409)).toHaveLength(1);
        const [row] = await r.h.t.db.select().from(instances).where(eq(instances.id, id));
        expect(row?.status).toBe('RUNNING');
        if (noGpu.statusCode === 200) {
          // No GPU held: the create got the one it left.
          expect(row?.noGpuRate).toBe(1_000);
          expect(await heldGpusOf(r.h.t.db, id)).toEqual([]);
          expect(bought.statusCode, bought.body).toBe(200);
          seen.add('nogpu');
        } else {
          expect(row?.noGpuRate).toBeNull();
          expect(await heldGpusOf(r.h.t.db, id)).toHaveLength(1);
          expect(bought.statusCode).not.toBe(200);
          seen.add('normal');
        }
        expect(await invariantProblems(r.h.t.db)).toEqual([]);
        if (bought.statusCode === 200) mine.push({ id: bought.json().data.id, headers: racer.headers });
        // Free the host for the next round, as customers would.
        for (const m of mine) await r.h.action(m.headers, 'release', m.id);
        const left = await r.h.t.db.select().from(instances).where(eq(instances.status, 'RUNNING'));
        expect(left.filter((i) => mine.some((m) => m.id === i.id))).toEqual([]);
      }
      expect(seen.size).toBeGreaterThan(0);
    }, 120_000);
  },
);
