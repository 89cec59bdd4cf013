import type { AdminActor, AdminImage, ImageCreateInput, ImageUpdateInput, Page } from '@gpu/shared';
import type { Db } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { catalogueErrors } from './catalogue.errors.ts';
import { createCatalogueRepository, type ImageRow } from './catalogue.repository.ts';
import type { CatalogueDeps } from './catalogue.usecases.ts';

const toImage = (r: ImageRow): AdminImage => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function listImages(
  { db }: { db: Db },
  q: {
    page: number;
    size: number;
    keyword?: string;
    frameworkType?: string;
    gpuBrand?: string;
    enabled?: boolean;
  },
): Promise<Page<AdminImage>> {
  const { rows, total } = await createCatalogueRepository({ db }).listImages(q, q);
  return { list: rows.map(toImage), total, page: q.page, size: q.size };
}

export async function getImage({ db }: { db: Db }, id: number): Promise<AdminImage> {
  const row = await createCatalogueRepository({ db }).findImage(id);
  if (!row) throw catalogueErrors.imageNotFound();
  return toImage(row);
}

export async function createImage(deps: CatalogueDeps, actor: AdminActor, input: ImageCreateInput) {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      if (await repo.findImageByUrl(input.imageUrl)) throw catalogueErrors.imageTaken(input.imageUrl);
      const created = await repo.insertImage(input);
      await recordAudit(tx, actor, 'images.create', `image:${created.id}`, { after: input });
      return created;
    });
    return toImage(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.imageTaken(input.imageUrl);
    throw e;
  }
}

export async function updateImage(
  deps: CatalogueDeps,
  actor: AdminActor,
  id: number,
  input: ImageUpdateInput,
) {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      const before = await repo.findImage(id);
      if (!before) throw catalogueErrors.imageNotFound();
      if (input.imageUrl && input.imageUrl !== before.imageUrl && (await repo.findImageByUrl(input.imageUrl)))
        throw catalogueErrors.imageTaken(input.imageUrl);
      const after = await repo.updateImage(id, { ...input, updatedAt: deps.now() });
      if (!after) throw catalogueErrors.imageNotFound();
      await recordAudit(tx, actor, 'images.update', `image:${id}`, { before, after });
      return after;
    });
    return toImage(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.imageTaken(input.imageUrl ?? '');
    throw e;
  }
}
