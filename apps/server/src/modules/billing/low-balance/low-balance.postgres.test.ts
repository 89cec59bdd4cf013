import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import { twoReplicas } from '../../instances/replicas.test-helpers.ts';
import { userNotices } from '../../notices/notices.tables.ts';
import { runLowBalance } from './low-balance.task.ts';

let r: Awaited<ReturnType<typeof twoReplicas>>;
describe.runIf(Boolean(process.env.DATABASE_URL))('low balance on two replicas', () => {
  beforeAll(async () => {
    r = await twoReplicas();
  });
  afterAll(() => r.close());

  it('runs of the scan on both replicas at once tell each account once', async () => {
    const users = [];
    for (let i = 0; i < 5; i++) {
      const u = await r.h.funded(5); // under ¥10, with an instance spending it
      const res = await r.h.create(u.headers, {
        machineId: await r.h.idOf('nm-a-l40s-01'),
        instanceName: `lb${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      expect(res.statusCode, res.body).toBe(200);
      users.push(u.user.id);
    }
    const runs = await Promise.all(
      [...r.apps, ...r.apps].map((app) => runLowBalance(app.deps.modules.billing)),
    );
    const told = await r.h.t.db
      .select({ userId: userNotices.userId, key: userNotices.dedupeKey })
      .from(userNotices)
      .where(eq(userNotices.event, 'low_balance'));
    expect(told.map((n) => n.userId).sort()).toEqual([...users].sort());
    expect(told.every((n) => n.key === 'low_balance:1')).toBe(true);
    expect(runs.reduce((n, x) => n + x.told, 0)).toBe(users.length);
  });
});
