import { describe, expect, it } from 'vitest';
import { sizeBytes } from './sample.ts';
import { cpuPercentOf, memoryOf } from './stats.ts';

describe('engine stats as a monitoring sample reads them', () => {
  it('CPU: the container’s share of the system’s time since the last read, times the cores', () => {
    const s = {
      cpu_stats: {
        cpu_usage: { total_usage: 3_000_000_000 },
        system_cpu_usage: 20_000_000_000,
        online_cpus: 4,
      },
      precpu_stats: { cpu_usage: { total_usage: 2_000_000_000 }, system_cpu_usage: 18_000_000_000 },
    };
    expect(cpuPercentOf(s)).toBe(200); // two of four cores busy
    // A first read has no previous one: 0, not a jump.
    expect(cpuPercentOf({ cpu_stats: s.cpu_stats, precpu_stats: {} })).toBe(0);
    expect(cpuPercentOf({ cpu_stats: s.cpu_stats, precpu_stats: s.cpu_stats })).toBe(0);
    expect(cpuPercentOf({})).toBe(0);
    // Engines without online_cpus: the per-CPU list's length.
    const old = {
      cpu_stats: { cpu_usage: { total_usage: 1, percpu_usage: [1, 1] }, system_cpu_usage: 4 },
      precpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 2 },
    };
    expect(cpuPercentOf(old)).toBe(100);
  });

  it('memory: usage less the page cache (cgroup v2, v1, old engines); the limit', () => {
    expect(memoryOf({ memory_stats: { usage: 1000, limit: 4096, stats: { inactive_file: 300 } } })).toEqual({
      usedBytes: 700,
      limitBytes: 4096,
    });
    expect(memoryOf({ memory_stats: { usage: 1000, stats: { total_inactive_file: 100 } } }).usedBytes).toBe(
      900,
    );
    expect(memoryOf({ memory_stats: { usage: 1000, stats: { cache: 1200 } } })).toEqual({
      usedBytes: 0,
      limitBytes: null,
    });
    expect(memoryOf({})).toEqual({ usedBytes: 0, limitBytes: null });
  });

  it('reads the engine’s StorageOpt sizes', () => {
    expect(sizeBytes('20G')).toBe(20 * 1024 ** 3);
    expect(sizeBytes('512m')).toBe(512 * 1024 ** 2);
    expect(sizeBytes('1073741824')).toBe(1024 ** 3);
    expect(sizeBytes('10GiB')).toBe(10 * 1024 ** 3);
    expect(sizeBytes('lots')).toBeNull();
  });
});
