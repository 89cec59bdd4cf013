import { ContainerNotFoundError, createHostsRepository } from '../hosts/index.ts';
import { powerOff, release } from '../instances/index.ts';
import type { VastaiDeps } from './vastai.deps.ts';
import { createVastaiRepository } from './vastai.repository.ts';

/**
 * Compares our overseas instances with vast.ai's (the instances' own reconcile finishes cut
 * transitions): an instance vast.ai no longer has is released (charged up to now, nothing
 * more); one vast.ai stopped by itself is powered off so billing stops; vast.ai's status is kept
 * for the SSH info. A vast.ai failure leaves everything as it is until the next run.
 */
export async function reconcileOverseas(deps: VastaiDeps) {
  const repo = createVastaiRepository(deps);
  const rows = await repo.settled();
  const outcomes: { id: number; to: string }[] = [];
  for (const r of rows) {
    if (!r.containerId) continue;
    const host = await createHostsRepository(deps).find(r.hostId);
    if (!host) continue;
    const driver = deps.hostDrivers.forHost(host);
    let status: string;
    try {
      const state = await driver.inspect(r.containerId);
      status = state.status;
    } catch (err) {
      if (!(err instanceof ContainerNotFoundError)) continue;
      await release(deps, r.id, { kind: 'system' }, '海外实例已在 vast.ai 上销毁，系统已释放', {
        inline: true,
      });
      outcomes.push({ id: r.id, to: 'RELEASED' });
      continue;
    }
    await repo.saveRental(r.id, { vastStatus: status, updatedAt: deps.clock.now() });
    if (r.status === 'RUNNING' && status === 'exited') {
      // A refused power off is logged and tried again by the next run; only a done one is reported.
      const stopped = await powerOff(deps, r.id, { kind: 'system' }, 'provider', { inline: true }).then(
        () => true,
        (err) => {
          deps.log.error({ err, instanceId: r.id }, 'overseas reconcile power-off failed');
          return false;
        },
      );
      if (stopped) outcomes.push({ id: r.id, to: 'STOPPED' });
    }
  }
  return { checked: rows.length, outcomes };
}
