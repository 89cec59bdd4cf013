import { capabilitiesOf, type HostRecord } from '../hosts/index.ts';
import type { MonitoringDeps } from './monitoring.deps.ts';
import { type SampledInstance, type SampleRow, slotOf, toSampleRow } from './monitoring.models.ts';
import { createMonitoringRepository } from './monitoring.repository.ts';
import { createSamplesRepository } from './samples.repository.ts';

/** Hosts asked at once: each answer is a few engine calls (stats take about a second). */
const HOSTS_IN_PARALLEL = 8;

const canSample = (host: HostRecord) => {
  try {
    return capabilitiesOf(host.driver).sampling;
  } catch {
    return false;
  }
};

/**
 * The `monitoring.sample` task: every running instance on a host that can be sampled, stamped
 * with the current 15 s slot. The engines are asked outside any transaction; the rows go in as
 * one multi-row insert, and a slot already written by another replica stays as it was (a host
 * another replica has sampled in this slot is not asked again). A host that fails is logged and
 * skipped: the others' samples still go in.
 */
export async function runSampling(deps: MonitoringDeps) {
  const at = slotOf(deps.clock.now());
  const repo = createMonitoringRepository(deps);
  const byHost = new Map<number, Array<SampledInstance & { containerId: string | null }>>();
  for (const inst of await repo.runningInstances()) {
    const list = byHost.get(inst.hostId);
    if (list) list.push(inst);
    else byHost.set(inst.hostId, [inst]);
  }
  const done = await repo.hostsSampledAt(at, [...byHost.keys()]);
  const hosts = (await repo.hostRows([...byHost.keys()].filter((id) => !done.has(id)))).filter(canSample);
  const rows: SampleRow[] = [];
  let failed = 0;
  const visit = async (host: HostRecord) => {
    const driver = deps.hostDrivers.forHost(host);
    if (!driver.sample) return;
    try {
      const mine = new Map((byHost.get(host.id) ?? []).map((i) => [i.id, i]));
      for (const s of await driver.sample()) {
        const inst = mine.get(s.instanceId);
        // Only the container the instance row names: a leftover of the same instance is not it.
        if (inst && inst.containerId === s.containerId) rows.push(toSampleRow(inst, s, at));
      }
    } catch (err) {
      failed += 1;
      deps.log.warn(
        { err, hostId: host.id },
        'monitoring: sampling a host failed; the next slot tries again',
      );
    }
  };
  for (let k = 0; k < hosts.length; k += HOSTS_IN_PARALLEL) {
    await Promise.all(hosts.slice(k, k + HOSTS_IN_PARALLEL).map(visit));
  }
  await createSamplesRepository(deps).record(rows);
  return { at: at.toISOString(), hosts: hosts.length, skippedHosts: done.size, failed, samples: rows.length };
}
