import { capabilitiesOf, createHostsRepository } from '../../hosts/index.ts';
import type { ImageDeletes, InstanceDeps } from '../instances.deps.ts';
import { createUserImagesRepository, type UserImageRow } from './images.repository.ts';

/** Deletions one sweep claims. */
const DELETE_BATCH = 20;

/**
 * The delete job: every DELETING image nobody holds is claimed (a lease, so replicas never
 * work on one together), removed from the host that made it, and where it was pushed from the
 * registry and from every local host (any may have pulled it), then its row goes. A failure
 * leaves it DELETING: the lease runs out and the next sweep tries again.
 */
export async function runImageDeletes(deps: InstanceDeps): Promise<number[]> {
  const repo = createUserImagesRepository(deps);
  const now = deps.clock.now();
  const claimed = await repo.claimDeleting(
    now,
    new Date(now.getTime() + deps.provisionLeaseMs),
    DELETE_BATCH,
  );
  const done: number[] = [];
  for (const row of claimed) {
    try {
      await removeEverywhere(deps, row);
      await repo.remove(row.id);
      done.push(row.id);
    } catch (err) {
      deps.log.warn({ err, imageId: row.id }, 'user image delete failed; the sweep retries it');
    }
  }
  return done;
}

async function removeEverywhere(deps: InstanceDeps, row: UserImageRow) {
  if (!row.ref) return;
  const ref = row.ref;
  const hostsRepo = createHostsRepository(deps);
  const origin = await hostsRepo.find(row.hostId);
  if (origin && capabilitiesOf(origin.driver).userImages) {
    const driver = deps.hostDrivers.forHost(origin);
    await driver.removeImage?.(ref);
    if (row.published) await driver.unpublishImage?.(ref);
  }
  if (!row.published) return;
  // Copies other hosts pulled: best effort (an unreachable host keeps an image nobody can name).
  for (const host of await hostsRepo.localHostsInUse()) {
    if (host.id === row.hostId || !capabilitiesOf(host.driver).userImages) continue;
    await deps.hostDrivers
      .forHost(host)
      .removeImage?.(ref)
      .catch((err) => deps.log.warn({ err, hostId: host.id, ref }, 'pulled user image not removed'));
  }
}

/** In-process kicks after a delete commits; the `instances.image-deletes` task is the safety net. */
export function createImageDeletes(deps: () => InstanceDeps, onError: (err: unknown) => void): ImageDeletes {
  let running: Promise<unknown> | null = null;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = runImageDeletes(deps())
      .catch(onError)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return {
    kick: run,
    async drain() {
      while (running) await running;
    },
  };
}
