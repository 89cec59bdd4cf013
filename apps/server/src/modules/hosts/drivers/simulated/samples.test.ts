import { describe, expect, it } from 'vitest';
import { busyAt, simulatedSample } from './samples.ts';
import type { SimulatedContainerRow } from './simulated.repository.ts';

const T0 = new Date('2026-11-26T00:00:00Z').getTime();
const row = (over: Partial<SimulatedContainerRow> = {}) =>
  ({
    id: 'c1',
    gpuIndices: [2, 5],
    cpus: 16,
    memoryGb: 64,
    diskGb: 30,
    gpuLoad: null,
    startedAt: new Date(T0 - 3600_000),
    ...over,
  }) as SimulatedContainerRow;
const inventory = [2, 5].map((index) => ({ index, uuid: `u${index}`, model: 'H100', memoryGb: 80 }));
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe('simulated monitoring series', () => {
  it('is the same for the same instance and moment, and differs between instances', () => {
    expect(simulatedSample(row(), 7, inventory, at(3))).toEqual(simulatedSample(row(), 7, inventory, at(3)));
    const a = Array.from({ length: 40 }, (_, m) => simulatedSample(row(), 7, inventory, at(m)).gpus[0]?.util);
    const b = Array.from({ length: 40 }, (_, m) => simulatedSample(row(), 8, inventory, at(m)).gpus[0]?.util);
    expect(a).not.toEqual(b);
  });

  it('has busy and idle phases of minutes, not single samples', () => {
    const slots = Array.from({ length: 24 * 240 }, (_, k) => busyAt(7, T0 + k * 15_000));
    const busyShare = slots.filter(Boolean).length / slots.length;
    expect(busyShare).toBeGreaterThan(0.3);
    expect(busyShare).toBeLessThan(0.9);
    const changes = slots.filter((b, k) => k > 0 && b !== slots[k - 1]).length;
    expect(changes).toBeGreaterThan(4);
    expect(changes).toBeLessThan(24 * 3);
    // Busy: the first GPU works hard; idle: every GPU under 3 %.
    for (let m = 0; m < 240; m += 1) {
      const s = simulatedSample(row(), 7, inventory, at(m));
      if (busyAt(7, at(m).getTime())) expect(s.gpus[0]?.util).toBeGreaterThanOrEqual(70);
      else expect(Math.max(...s.gpus.map((g) => g.util))).toBeLessThan(3);
    }
  });

  it('reports the container’s GPUs by host index with their memory, and its limits', () => {
    const s = simulatedSample(row(), 7, inventory, at(0));
    expect(s.gpus.map((g) => [g.index, g.memTotalMib])).toEqual([
      [2, 81_920],
      [5, 81_920],
    ]);
    for (const g of s.gpus) expect(g.memUsedMib).toBeLessThanOrEqual(g.memTotalMib);
    expect(s).toMatchObject({
      containerId: 'c1',
      instanceId: 7,
      memLimitBytes: 64 * 1024 ** 3,
      diskLimitBytes: 30 * 1024 ** 3,
    });
    expect(s.memUsedBytes).toBeLessThan(64 * 1024 ** 3);
    expect(s.cpuPercent).toBeGreaterThan(0);
    // The disk grows as it runs.
    expect(simulatedSample(row(), 7, inventory, at(600)).diskUsedBytes).toBeGreaterThan(s.diskUsedBytes);
  });

  it('takes a fixed GPU load when tests steer it (setSimulatedGpuLoad)', () => {
    for (let m = 0; m < 120; m += 7) {
      expect(simulatedSample(row({ gpuLoad: 0 }), 7, inventory, at(m)).gpus.map((g) => g.util)).toEqual([
        0, 0,
      ]);
      expect(simulatedSample(row({ gpuLoad: 93 }), 7, inventory, at(m)).gpus.map((g) => g.util)).toEqual([
        93, 93,
      ]);
    }
  });
});
