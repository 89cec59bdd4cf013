import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceEvents } from '../instances/instances.tables.ts';
import { twoReplicas } from '../instances/replicas.test-helpers.ts';
import { guardsHelpers, IDLE, MIN, OFF } from './guards.test-helpers.ts';
import { runGuardsCheck } from './tasks/check.task.ts';

// Real lock contention needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('guards on PostgreSQL, two replicas checking at once', () => {
  const T0 = new Date('2026-11-22T08:00:00Z');
  const clock = fixedClock(T0);
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  let g: ReturnType<typeof guardsHelpers>;
  beforeAll(async () => {
    r = await twoReplicas(clock);
    g = guardsHelpers(r.h, clock);
  });
  afterAll(() => r.close());

  /** Both replicas run the check at the same moment, three times over, then their jobs finish. */
  const bothCheck = async () => {
    for (let i = 0; i < 3; i++) {
      await Promise.all(
        r.apps.flatMap((a) => [runGuardsCheck(a.deps.modules.guards), runGuardsCheck(a.deps.modules.guards)]),
      );
    }
    await r.drain();
  };
  const stops = (id: number) =>
    r.h.t.db
      .select()
      .from(instanceEvents)
      .where(and(eq(instanceEvents.instanceId, id), eq(instanceEvents.toStatus, 'STOPPING')));

  it('idle, scheduled and capped instances are warned once and stopped once', async () => {
    const idle = await g.running('pg-idle');
    const sched = await g.running('pg-sched', 'hourly', idle.u);
    const capped = await g.running('pg-cap', 'hourly', idle.u);
    const { headers } = idle.u;
    await g.put(headers, idle.id, { idle: IDLE, schedule: OFF, spendingCap: null });
    const when = new Date(T0.getTime() + 30 * MIN).toISOString();
    await g.put(headers, sched.id, { idle: null, schedule: { mode: 'at', at: when }, spendingCap: null });
    // ¥3.98 an hour: ¥1.50 at 1357 s (between the 20th and 30th minute), its 80 % at 1086 s.
    await g.put(headers, capped.id, { idle: null, schedule: OFF, spendingCap: 1.5 });
    for (let m = 0; m < 30; m++) {
      for (let s = 0; s < 4; s++) {
        await g.sample(idle.id, 1);
        clock.advance(15_000);
      }
      await bothCheck();
    }
    const events = (await g.notices(idle.u.user.id)).map((n) => `${n.instanceId}:${n.event}`).sort();
    expect(events).toEqual(
      [
        `${idle.id}:idle_shutdown_warning`,
        `${idle.id}:idle_shutdown`,
        `${sched.id}:scheduled_shutdown_warning`,
        `${sched.id}:scheduled_shutdown`,
        `${capped.id}:spending_cap_warning`,
        `${capped.id}:spending_cap_shutdown`,
      ].sort(),
    );
    for (const id of [idle.id, sched.id, capped.id]) {
      expect((await r.h.view(headers, id)).status).toBe('STOPPED');
      expect(await stops(id)).toHaveLength(1);
    }
  });
});
