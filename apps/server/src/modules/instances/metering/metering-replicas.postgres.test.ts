import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { findUnbalancedAccounts } from '../../ledger/ledger.ts';
import { billingRecords, instances } from '../instances.tables.ts';
import { runMetering } from '../tasks/billing-tasks.ts';

// Real lock contention needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('metering on PostgreSQL, several replicas at once', () => {
  const T0 = new Date('2026-11-22T08:00:00Z');
  const clock = fixedClock(T0);
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  const ids: number[] = [];
  beforeAll(async () => {
    h = await instanceTestApp(clock);
    for (let i = 0; i < 8; i++) {
      const u = await h.funded(100);
      const res = await h.create(u.headers, {
        machineId: await h.idOf('nm-a-l40s-01'),
        instanceName: `r${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().data.id);
    }
  });
  afterAll(() => h.t.close());

  it('four concurrent runs charge each instance exactly once for the same span', async () => {
    clock.set(new Date(T0.getTime() + 30 * 60_000));
    await Promise.all([runMetering(h.deps), runMetering(h.deps), runMetering(h.deps), runMetering(h.deps)]);
    const expected = Math.floor((39_800 * 1800) / 3600);
    for (const id of ids) {
      const [r] = await h.t.db.select().from(instances).where(eq(instances.id, id));
      expect(r?.charged).toBe(expected);
      const [billed] = await h.t.db
        .select({ n: sum(billingRecords.amount) })
        .from(billingRecords)
        .where(eq(billingRecords.instanceId, id));
      expect(Number(billed?.n)).toBe(expected);
    }
    expect(await findUnbalancedAccounts(h.t.db)).toEqual([]);
  });
});
