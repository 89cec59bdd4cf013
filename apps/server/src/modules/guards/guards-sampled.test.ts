import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { setSimulatedGpuLoad } from '../hosts/index.ts';
import { runSampling } from '../monitoring/sampling.usecases.ts';
import { guardsHelpers, IDLE, MIN, OFF } from './guards.test-helpers.ts';

// The whole chain with nothing written by hand: the simulated host reports its GPUs, the sampling
// task stores them every 15 s, the guards' check reads them and stops the instance.
const clock = fixedClock('2026-11-26T08:00:03Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let g: ReturnType<typeof guardsHelpers>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  g = guardsHelpers(h, clock);
});
afterAll(() => h.t.close());

/** Minutes pass with the sampler every 15 s and the guards' check at each minute's end. */
async function sampled(minutes: number) {
  for (let m = 0; m < minutes; m++) {
    for (let s = 0; s < 4; s++) {
      await runSampling(h.t.app.deps.modules.monitoring);
      clock.advance(15_000);
    }
    await g.check();
  }
}

describe('idle auto-shutdown on sampled GPUs', () => {
  it('stops an instance whose simulated GPUs went idle, after the warning; a busy one keeps running', async () => {
    const { u, id } = await g.running('sampled-idle');
    const busy = await g.running('sampled-busy', 'hourly', u);
    for (const i of [id, busy.id]) {
      expect((await g.put(u.headers, i, { idle: IDLE, schedule: OFF, spendingCap: null })).statusCode).toBe(
        200,
      );
    }
    expect(await setSimulatedGpuLoad(h.t.db, id, 1)).toBe(1);
    expect(await setSimulatedGpuLoad(h.t.db, busy.id, 85)).toBe(1);
    const started = clock.now().getTime();

    await sampled(19);
    expect((await g.notices(u.user.id)).map((n) => n.event)).toEqual([]);
    await sampled(2);
    expect((await g.notices(u.user.id)).map((n) => [n.event, n.instanceId])).toEqual([
      ['idle_shutdown_warning', id],
    ]);
    await sampled(10);
    const view = await h.view(u.headers, id);
    expect(view.status).toBe('STOPPED');
    expect(view.stopReason).toContain('因GPU空闲自动关机');
    expect(clock.now().getTime() - started).toBeLessThanOrEqual(32 * MIN);
    expect((await h.view(u.headers, busy.id)).status).toBe('RUNNING');
    expect((await g.notices(u.user.id)).map((n) => n.event)).toEqual([
      'idle_shutdown_warning',
      'idle_shutdown',
    ]);
  });
});
