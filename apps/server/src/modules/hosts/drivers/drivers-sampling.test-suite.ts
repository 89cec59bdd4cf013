import { expect, it } from 'vitest';
import { HostUnreachableError } from './driver-errors.ts';
import type { DriverHarness } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult } from './host-driver.ts';

/**
 * Monitoring samples (issue 31), inside `hostDriverContract`: drivers with `capabilities.sampling`
 * report each running container of the platform once, with its instance, its own GPUs only,
 * figures in range and its memory limit; stopped and foreign containers are not sampled.
 */
export function samplingContract(ctx: {
  harness: () => DriverHarness;
  spec: (over?: Partial<ContainerSpec>) => ContainerSpec;
  create: (spec: ContainerSpec) => Promise<CreateResult>;
}) {
  it('samples its running containers: instance, own GPUs, CPU, memory and disk in range', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.sampling) {
      expect(h.driver.sample).toBeUndefined();
      return;
    }
    const sample = h.driver.sample?.bind(h.driver);
    if (!sample) throw new Error('a driver with capabilities.sampling has sample()');
    const runningSpec = ctx.spec({ gpuIndices: [0, 1], memoryGb: 1 });
    const running = await ctx.create(runningSpec);
    await h.driver.start(running.containerId);
    const idle = await ctx.create(ctx.spec({ gpuIndices: [1] }));
    const foreign = await h.createForeignContainer();
    try {
      const all = await sample();
      expect(all.filter((s) => s.containerId === idle.containerId)).toEqual([]);
      expect(all.filter((s) => s.containerId === foreign)).toEqual([]);
      const mine = all.filter((s) => s.containerId === running.containerId);
      expect(mine).toHaveLength(1);
      const s = mine[0];
      if (!s) return;
      expect(s.instanceId).toBe(runningSpec.instanceId);
      // Its own GPUs only, by host index; all of them where the host reports GPU figures.
      if (h.gpuFigures) expect(s.gpus.map((g) => g.index)).toEqual([0, 1]);
      for (const g of s.gpus) {
        expect([0, 1]).toContain(g.index);
        expect(g.util).toBeGreaterThanOrEqual(0);
        expect(g.util).toBeLessThanOrEqual(100);
        expect(g.memUsedMib).toBeLessThanOrEqual(g.memTotalMib);
      }
      expect(s.cpuPercent).toBeGreaterThanOrEqual(0);
      expect(s.memUsedBytes).toBeGreaterThanOrEqual(0);
      expect(s.memLimitBytes).toBe(1024 ** 3);
      expect(s.memUsedBytes).toBeLessThanOrEqual(1024 ** 3);
      expect(s.diskUsedBytes).toBeGreaterThanOrEqual(0);
      if (s.diskLimitBytes !== null) expect(s.diskLimitBytes).toBeGreaterThan(0);

      await h.driver.stop(running.containerId);
      expect((await sample()).map((x) => x.containerId)).not.toContain(running.containerId);
      await expect(h.unreachable.sample?.()).rejects.toBeInstanceOf(HostUnreachableError);
    } finally {
      await h.removeForeignContainer(foreign);
    }
  });
}
