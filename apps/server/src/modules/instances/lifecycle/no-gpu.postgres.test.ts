import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldGpusOf } from '../../../test/instances.ts';
import { instances } from '../instances.tables.ts';
import { createOn, stoppedThenFilled } from '../races.test-helpers.ts';
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
      createOn(r, app, headers, HOST, name);
    const powerOn = (headers: Record<string, string>, id: number, query: string) =>
      r
        .next()
        .inject({ method: 'POST', url: `/api/gpu/instance/power_on?instance_uuid=${id}${query}`, headers });

    it('one power on wins; no-GPU mode leaves the freed GPU to the create; each GPU held once', async () => {
      const seen = new Set<string>();
      for (let round = 0; round < 4; round++) {
        // Everything idle is taken but one GPU: the one the instance left.
        const { owner, id, mine } = await stoppedThenFilled(r, {
          host: HOST,
          name: `nogpu-${round}`,
          funded: 100,
          fill: { name: `fill-${round}`, funded: 1000, leave: 1 },
        });
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
