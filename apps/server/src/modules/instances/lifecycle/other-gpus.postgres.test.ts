import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldGpusOf } from '../../../test/instances.ts';
import { instances } from '../instances.tables.ts';
import { createOn, stoppedThenFilled } from '../races.test-helpers.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'nm-a-l40s-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('power on on other GPUs racing creates, PostgreSQL', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    r = await twoReplicas();
  });
  afterAll(() => r.close());

  const create = (app: ReturnType<typeof r.next>, headers: Record<string, string>, name: string) =>
    createOn(r, app, headers, HOST, name);

  it('the moved instance and the creates share the idle GPUs: each GPU held once, the rest refused', async () => {
    for (let round = 0; round < 2; round++) {
      // Everything idle is taken but two GPUs (the original one among the taken).
      const { owner, id, mine } = await stoppedThenFilled(r, {
        host: HOST,
        name: `moved-${round}`,
        funded: 100,
        fill: { name: `fill-${round}`, funded: 1000, leave: 2 },
      });
      expect((await heldGpusOf(r.h.t.db, id)).length).toBe(0);
      // Now three want the two idle GPUs at once: the moved instance and two creates.
      const racers = await Promise.all([r.h.funded(100), r.h.funded(100)]);
      // A slow host on the second round: the jobs overlap the other requests.
      await r.h.setHostSettings(HOST, `{"latencyMs":${round ? 200 : 0}}`);
      const answers = await Promise.all([
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/power_on?instance_uuid=${id}&gpus=any`,
          headers: owner.headers,
        }),
        create(r.next(), racers[0]?.headers as never, `race-a-${round}`),
        create(r.next(), racers[1]?.headers as never, `race-b-${round}`),
      ]);
      await r.drain();
      expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      const started = answers.filter((a) => a.statusCode === 200).length;
      expect(started).toBe(2);
      expect(answers.filter((a) => a.statusCode === 409 || a.statusCode === 422).length).toBe(1);
      expect(await invariantProblems(r.h.t.db)).toEqual([]);
      for (const [k, a] of answers.entries())
        if (k > 0 && a.statusCode === 200)
          mine.push({ id: a.json().data.id, headers: racers[k - 1]?.headers as never });
      // Free the host for the next round, as customers would.
      for (const m of mine) await r.h.action(m.headers, 'release', m.id);
      const left = await r.h.t.db.select().from(instances).where(eq(instances.status, 'RUNNING'));
      expect(left.filter((i) => mine.some((m) => m.id === i.id))).toEqual([]);
    }
  }, 120_000);
});
