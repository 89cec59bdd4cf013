/**
 * The engine's container stats (`GET /containers/{id}/stats?stream=false`) as a monitoring sample
 * reads them: pure, so the arithmetic is tested without an engine.
 */
export interface EngineStats {
  cpu_stats?: CpuStats;
  precpu_stats?: CpuStats;
  memory_stats?: {
    usage?: number;
    limit?: number;
    stats?: Record<string, number | undefined>;
  };
}
interface CpuStats {
  cpu_usage?: { total_usage?: number; percpu_usage?: number[] };
  system_cpu_usage?: number;
  online_cpus?: number;
}

/** As `docker stats` shows it: 100 is one core busy (a container on 4 cores may read 400). */
export function cpuPercentOf(s: EngineStats): number {
  const now = s.cpu_stats;
  const before = s.precpu_stats;
  // No previous read (a one-shot read): a lifetime average would be no reading of now.
  if (!before?.system_cpu_usage) return 0;
  const cpuDelta = (now?.cpu_usage?.total_usage ?? 0) - (before?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (now?.system_cpu_usage ?? 0) - (before?.system_cpu_usage ?? 0);
  if (cpuDelta <= 0 || systemDelta <= 0) return 0;
  const cpus = now?.online_cpus || now?.cpu_usage?.percpu_usage?.length || 1;
  return Math.round((cpuDelta / systemDelta) * cpus * 1000) / 10;
}

/**
 * Memory in use less the page cache the kernel can drop (cgroup v2 `inactive_file`, v1
 * `total_inactive_file`, older engines `cache`), as `docker stats` counts it; the limit is the
 * container's, or the host's memory where it has none.
 */
export function memoryOf(s: EngineStats): { usedBytes: number; limitBytes: number | null } {
  const m = s.memory_stats ?? {};
  const st = m.stats ?? {};
  const cache = st.inactive_file ?? st.total_inactive_file ?? st.cache ?? 0;
  return {
    usedBytes: Math.max(0, (m.usage ?? 0) - cache),
    limitBytes: m.limit && m.limit > 0 ? m.limit : null,
  };
}
