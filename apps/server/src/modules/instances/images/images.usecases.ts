import type { AdminActor, SaveImageRequest, UserImage, UserImageList, UserImageQuota } from '@gpu/shared';
import { GIB } from '@gpu/shared/sizes';
import { recordAudit } from '../../audit/index.ts';
import { capabilitiesOf, createHostsRepository, userImageRefOf } from '../../hosts/index.ts';
import type { Actor, ImageDeletes, InstanceDeps } from '../instances.deps.ts';
import { begin } from '../lifecycle/transitions.usecases.ts';
import { imageErrors } from './images.errors.ts';
import { createUserImagesRepository, type UserImageWithPlace } from './images.repository.ts';

export const toUserImageView = (r: UserImageWithPlace): UserImage => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  progress: r.progress,
  sizeBytes: r.sizeBytes,
  image: r.status === 'AVAILABLE' ? r.ref : null,
  hostId: r.published ? null : r.hostId,
  hostName: r.hostName,
  sourceInstanceId: r.sourceInstanceId,
  sourceInstanceName: r.sourceInstanceName,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Save as image (保存镜像): STOPPED → SAVING_IMAGE, and a SAVING image row, in one transaction
 * under the instance's row lock; the job (save.usecases.ts) commits the container and ends in
 * STOPPED with the image AVAILABLE or FAILED. Only a powered-off instance on a host whose driver
 * can (capabilities.userImages); the user's count and size quota are checked here (the size
 * again once the commit tells it). Nothing is charged: storage is bounded by the quota.
 */
export async function saveImage(
  deps: InstanceDeps,
  instanceId: number,
  actor: Actor & { kind: 'user' },
  input: SaveImageRequest,
): Promise<number> {
  let imageId = 0;
  await begin(
    deps,
    instanceId,
    ['STOPPED'],
    'SAVING_IMAGE',
    actor,
    '保存镜像',
    () => ({}),
    async (tx, locked, now) => {
      const host = await createHostsRepository({ db: tx }).find(locked.hostId);
      if (!host || !capabilitiesOf(host.driver).userImages) throw imageErrors.unsupported();
      if (!locked.containerId) throw imageErrors.noContainer();
      const repo = createUserImagesRepository({ db: tx });
      await repo.lockUser(locked.userId);
      const quota = await repo.quota();
      const used = await repo.usage(locked.userId);
      if (used.count >= quota.maxCount) throw imageErrors.countQuota(quota.maxCount);
      if (used.bytes >= quota.maxTotalGb * GIB) throw imageErrors.sizeQuota(quota.maxTotalGb);
      const row = await repo.insert({
        userId: locked.userId,
        name: input.name,
        description: input.description,
        status: 'SAVING',
        hostId: locked.hostId,
        sourceInstanceId: locked.id,
        createdAt: now,
        updatedAt: now,
      });
      imageId = row.id;
      await repo.update(row.id, { ref: userImageRefOf(locked.userId, row.id, deps.imageRegistry) });
      return { transitionJob: { imageId } };
    },
  );
  return imageId;
}

export async function getUserImage(deps: InstanceDeps, userId: number, id: number): Promise<UserImage> {
  const row = await createUserImagesRepository(deps).findOwned(id, userId);
  if (!row || row.status === 'DELETING') throw imageErrors.notFound();
  return toUserImageView(row);
}

export async function listUserImages(deps: InstanceDeps, userId: number): Promise<UserImageList> {
  const repo = createUserImagesRepository(deps);
  const [rows, quota, used] = await Promise.all([repo.listOwned(userId), repo.quota(), repo.usage(userId)]);
  return { items: rows.map(toUserImageView), quota, usedCount: used.count, usedBytes: used.bytes };
}

/**
 * Delete: the row leaves the list and the quota at once (DELETING); the delete job removes the
 * image from its host and the registry. Refused while it is being saved or an instance is
 * being created from it (that create holds the row's share lock until it commits).
 */
export async function deleteUserImage(
  deps: InstanceDeps & { imageDeletes?: ImageDeletes },
  userId: number,
  id: number,
) {
  await deps.db.transaction(async (tx) => {
    const repo = createUserImagesRepository({ db: tx });
    const row = await repo.lock(id);
    if (!row || row.userId !== userId || row.status === 'DELETING') throw imageErrors.notFound();
    if (row.status === 'SAVING') throw imageErrors.busy('正在保存');
    if (row.ref && (await repo.creatingFrom(row.ref))) throw imageErrors.busy('正被用于创建实例');
    await repo.update(id, { status: 'DELETING', claimedUntil: null });
  });
  deps.imageDeletes?.kick();
}

export const getImageQuota = (deps: Pick<InstanceDeps, 'db'>) => createUserImagesRepository(deps).quota();

export async function setImageQuota(
  deps: Pick<InstanceDeps, 'db'>,
  actor: AdminActor,
  quota: UserImageQuota,
): Promise<UserImageQuota> {
  await deps.db.transaction(async (tx) => {
    const repo = createUserImagesRepository({ db: tx });
    const before = await repo.quota();
    await repo.setQuota(quota);
    await recordAudit(tx, actor, 'images.user_quota', 'image', { before, after: quota });
  });
  return getImageQuota(deps);
}
