import type { Tx } from '../../platform/db/client.ts';
import { createAllocationRepository } from './allocation.repository.ts';
import { hostErrors } from './hosts.errors.ts';

export interface PortPoolResult {
  total: number;
  added: number;
  removed: number;
  allocated: number;
}

/**
 * Makes the host's port pool equal its range: adds missing ports, drops free ports outside it.
 * Idempotent. Refuses (409) when an allocated port would fall outside the range. The caller
 * holds the host's row lock.
 */
export async function syncPortPool(
  tx: Tx,
  host: { id: number; portRangeStart: number; portRangeEnd: number },
): Promise<PortPoolResult> {
  const repo = createAllocationRepository({ db: tx });
  const stranded = await repo.strandedPorts(host);
  if (stranded.length > 0) throw hostErrors.portsInUse(stranded);

  const removed = await repo.deleteFreePortsOutside(host);
  const added = await repo.insertMissingPorts(host);
  const counts = await repo.portCounts(host.id);
  return { total: counts.total, allocated: counts.allocated, added, removed };
}
