import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE } from '../../test/instances.ts';
import { twoReplicas } from '../instances/replicas.test-helpers.ts';
import { instanceSampleRollups, instanceSamples } from './monitoring.tables.ts';
import { runRollup } from './rollup.usecases.ts';
import { runSampling } from './sampling.usecases.ts';

/** Two replicas on one PostgreSQL sample and roll up at the same moments (DESIGN §12). */
describe.runIf(process.env.DATABASE_URL)('monitoring on two replicas (PostgreSQL)', () => {
  const clock = fixedClock('2026-11-26T09:00:03Z');
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  const ids: number[] = [];
  beforeAll(async () => {
    r = await twoReplicas(clock);
    const u = await r.h.funded(2000);
    for (const [k, host] of ['nm-a-l40s-01', 'gd-b-h100-01', 'nm-a-l40s-01'].entries()) {
      const res = await r.h.create(u.headers, {
        machineId: await r.h.idOf(host),
        instanceName: `pg-${k}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      ids.push(res.json().data.id);
    }
    await r.drain();
  });
  afterAll(() => r.close());

  it('two replicas sampling every slot at once write each instance once per slot', async () => {
    for (let slot = 0; slot < 8; slot++) {
      await Promise.all(r.apps.map((app) => runSampling(app.deps.modules.monitoring)));
      clock.advance(15_000);
    }
    for (const id of ids) {
      const rows = await r.h.t.db.select().from(instanceSamples).where(eq(instanceSamples.instanceId, id));
      expect(rows.map((row) => row.at.toISOString())).toEqual(
        Array.from({ length: 8 }, (_, k) =>
          new Date(Date.parse('2026-11-26T09:00:00Z') + k * 15_000).toISOString(),
        ),
      );
    }
  });

  it('two replicas rolling up at once write each bucket once', async () => {
    clock.set('2026-11-26T09:06:30Z');
    const results = await Promise.all(r.apps.map((app) => runRollup(app.deps.modules.monitoring)));
    // One took the lock and rolled up; the other skipped (or found nothing left).
    expect(
      results.map((x) => x.rolled ?? 0).reduce((a, b) => Number(a) + Number(b), 0),
    ).toBeGreaterThanOrEqual(ids.length);
    const again = await Promise.all(r.apps.map((app) => runRollup(app.deps.modules.monitoring)));
    expect(again.every((x) => !x.rolled)).toBe(true);
    const rows = await r.h.t.db.select().from(instanceSampleRollups);
    const mine = rows.filter((row) => ids.includes(row.instanceId));
    expect(mine.map((row) => [row.instanceId, row.bucket.toISOString(), row.samples]).sort()).toEqual(
      ids.map((id) => [id, '2026-11-26T09:00:00.000Z', 8]).sort(),
    );
  });
});
