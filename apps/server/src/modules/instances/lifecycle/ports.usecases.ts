import { allocateOnHost, capabilitiesOf, createHostsRepository, releaseOnHost } from '../../hosts/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import type { ExtraPortMapping } from '../instances.tables.ts';

/**
 * What changing the extra ports from `held` to `wanted` takes: container ports kept keep their
 * host ports (a link the user saved stays valid), dropped ones give theirs back, new ones need
 * one each. `order` is the wanted list, to be filled with the kept and the new host ports.
 */
export function planExtraPorts(held: ExtraPortMapping[], wanted: number[]) {
  const kept = new Map(held.filter((p) => wanted.includes(p.containerPort)).map((p) => [p.containerPort, p]));
  return {
    drop: held.filter((p) => !wanted.includes(p.containerPort)).map((p) => p.hostPort),
    add: wanted.filter((p) => !kept.has(p)),
    mapping: (newHostPorts: number[]): ExtraPortMapping[] => {
      const fresh = [...newHostPorts];
      return wanted.map((containerPort) => ({
        containerPort,
        hostPort: kept.get(containerPort)?.hostPort ?? (fresh.shift() as number),
      }));
    },
  };
}

/**
 * PUT /api/gpu/instance/:uuid/ports: the owner's new list of extra ports, only while powered off
 * (its container is not running and is made again before it next runs with them). In one
 * transaction, in the lock order (ledger.ts): the instance row, then the host share-locked while
 * the dropped host ports go back to the pool and the new ones are taken like a create takes
 * them (`allocateOnHost`: rows FOR UPDATE SKIP LOCKED, so concurrent creates never get the same
 * port), then the row. A short pool rolls all of it back (409).
 */
export async function setExtraPorts(
  deps: Pick<InstanceDeps, 'db'>,
  id: number,
  wanted: number[],
): Promise<InstanceRow> {
  return deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const inst = await repo.lock(id);
    if (!inst) throw instanceErrors.notFound();
    if (inst.status !== 'STOPPED') throw instanceErrors.portsNeedPowerOff(inst.status);
    const host = await createHostsRepository({ db: tx }).find(inst.hostId);
    if (!host || !capabilitiesOf(host.driver).localAllocation) throw instanceErrors.extraPortsUnsupported();
    const plan = planExtraPorts(inst.extraPorts, wanted);
    if (plan.drop.length > 0)
      await releaseOnHost(tx, { hostId: inst.hostId, instanceId: inst.id, gpus: false, ports: plan.drop });
    const added =
      plan.add.length > 0
        ? (
            await allocateOnHost(tx, {
              hostId: inst.hostId,
              instanceId: inst.id,
              gpuCount: 0,
              portCount: plan.add.length,
            })
          ).ports
        : [];
    const row = await repo.update(inst.id, { extraPorts: plan.mapping(added) });
    if (!row) throw instanceErrors.notFound();
    return row;
  });
}
