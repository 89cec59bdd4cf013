import { isDriverError } from '../../hosts/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { driverFor, failure, finish } from '../lifecycle/finish.usecases.ts';
import { overSizeQuota } from './images.errors.ts';
import { createUserImagesRepository } from './images.repository.ts';

/** Progress as the save goes: committed, then pushed (the push's bytes fill the part between). */
const COMMITTED = 50;
const PUSHED = 95;

/**
 * The job half of a save (`saveImage`, images.usecases.ts), for an instance this worker has
 * claimed: commit its container into the image's reference, check the size quota, push to the
 * registry when one is set, then STOPPED again with the image AVAILABLE, in one transaction.
 * A failure leaves the instance STOPPED and the image FAILED (what was made is removed; nothing
 * was charged). A save takes minutes: the job keeps renewing its claim so no other worker takes
 * it over meanwhile; one that does (a crash) commits again into the same tag.
 */
export async function saveImageJob(deps: InstanceDeps, inst: InstanceRow) {
  const repo = createUserImagesRepository(deps);
  const imageId = inst.transitionJob?.imageId;
  const image = imageId ? await repo.find(imageId) : undefined;
  if (!image?.ref || image.status !== 'SAVING' || !inst.containerId) {
    const row = await finish(deps, inst, 'SAVING_IMAGE', 'STOPPED', '保存镜像失败：镜像记录不存在');
    return { row };
  }
  const ref = image.ref;
  const containerId = inst.containerId;
  const renew = setInterval(
    () => {
      const until = new Date(deps.clock.now().getTime() + deps.provisionLeaseMs);
      repo
        .extendClaim(inst.id, until)
        .catch((err) => deps.log.warn({ err, instanceId: inst.id }, 'claim renewal failed'));
    },
    Math.max(1000, deps.provisionLeaseMs / 3),
  );
  renew.unref();
  let sizeBytes: number;
  let published = false;
  let driver: Awaited<ReturnType<typeof driverFor>> | undefined;
  try {
    driver = await driverFor(deps, inst);
    const { commitImage, pushImage } = driver;
    if (!commitImage || !pushImage) throw new Error('该主机不支持保存镜像');
    await repo.progress(image.id, 5);
    sizeBytes = (await commitImage(containerId, ref)).sizeBytes;
    await repo.progress(image.id, COMMITTED);
    const quota = await repo.quota();
    const used = await repo.usage(image.userId, image.id);
    const over = overSizeQuota(used.bytes, sizeBytes, quota.maxTotalGb);
    if (over) throw new QuotaExceeded(over);
    if (deps.imageRegistry) {
      let shown = COMMITTED;
      await pushImage(ref, (f) => {
        const p = Math.floor(COMMITTED + f * (PUSHED - COMMITTED));
        if (p < shown + 5) return;
        shown = p;
        void repo.progress(image.id, p).catch(() => undefined);
      });
      published = true;
    }
  } catch (err) {
    clearInterval(renew);
    // The user reads it: a driver's or the quota's own words, never an internal error's.
    const why =
      err instanceof QuotaExceeded || isDriverError(err) ? (err as Error).message : '主机暂时不可用';
    await driver?.removeImage?.(ref).catch(() => undefined);
    const row = await finish(deps, inst, 'SAVING_IMAGE', 'STOPPED', `保存镜像失败：${why}`, async (tx) => {
      await createUserImagesRepository({ db: tx }).update(image.id, {
        status: 'FAILED',
        error: why,
      });
      return undefined;
    });
    return { row, failed: err instanceof QuotaExceeded ? undefined : failure('保存镜像', err) };
  }
  clearInterval(renew);
  const row = await finish(
    deps,
    inst,
    'SAVING_IMAGE',
    'STOPPED',
    `已保存镜像：${image.name}`,
    async (tx) => {
      await createUserImagesRepository({ db: tx }).update(image.id, {
        status: 'AVAILABLE',
        progress: 100,
        sizeBytes,
        published,
        error: null,
      });
      return undefined;
    },
    true,
  );
  return { row };
}

/** The commit came out larger than the user's size quota leaves. */
class QuotaExceeded extends Error {}
