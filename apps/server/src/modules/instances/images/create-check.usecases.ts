import type { Tx } from '../../../platform/db/client.ts';
import { createHostsRepository } from '../../hosts/index.ts';
import { imageErrors } from './images.errors.ts';
import { createUserImagesRepository } from './images.repository.ts';

/**
 * A create naming a user image (create.usecases.ts), in its transaction: the owner's own,
 * AVAILABLE, on the machine's host unless pushed to the registry. Share-locks the row so a
 * delete waits for the create to commit (and then sees it CREATING).
 */
export async function checkUserImageForCreate(tx: Tx, userId: number, ref: string, hostId: number) {
  const repo = createUserImagesRepository({ db: tx });
  const found = await repo.byRef(ref);
  const row = found && (await repo.lockShared(found.id));
  if (!row || row.userId !== userId || row.status === 'DELETING') throw imageErrors.notFound();
  if (row.status === 'SAVING') throw imageErrors.notReady('正在保存');
  if (row.status === 'FAILED') throw imageErrors.notReady('保存失败');
  if (!row.published && row.hostId !== hostId) {
    const host = await createHostsRepository({ db: tx }).find(row.hostId);
    throw imageErrors.wrongHost(host?.name ?? String(row.hostId));
  }
}
