import type { Image } from '@gpu/shared';
import { and, asc, eq, type Placeholder, type SQLWrapper, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { images } from '../hosts/catalog.tables.ts';

/** Images made for this GPU brand (any case): a value, or another query's column. */
const forBrand = (gpuBrand: string | SQLWrapper) => sql`lower(${images.gpuBrand}) = lower(${gpuBrand})`;

/**
 * The enabled image at this URL made for this GPU brand: what instance creation accepts (and the
 * image lists offer).
 */
export const usableImage = (imageUrl: string | Placeholder, gpuBrand: string | SQLWrapper) =>
  and(eq(images.enabled, true), eq(images.imageUrl, imageUrl), forBrand(gpuBrand));

export function createImagesRepository({ db }: { db: DbOrTx }) {
  return {
    async list(q: { gpuBrand?: string; platformType?: string; preset?: boolean }): Promise<Image[]> {
      const rows = await db
        .select()
        .from(images)
        .where(
          and(
            eq(images.enabled, true),
            q.gpuBrand ? forBrand(q.gpuBrand) : undefined,
            q.platformType ? eq(images.platformType, q.platformType) : undefined,
            q.preset ? eq(images.preset, true) : undefined,
          ),
        )
        .orderBy(asc(images.sortOrder), asc(images.id));
      return rows.map((r) => ({
        id: r.id,
        imageName: r.imageName,
        imageUrl: r.imageUrl,
        frameworkType: r.frameworkType as Image['frameworkType'],
        frameworkVersion: r.frameworkVersion,
        pythonVersion: r.pythonVersion,
        cudaVersion: r.cudaVersion,
        cannVersion: r.cannVersion,
        musaVersion: r.musaVersion,
        osInfo: r.osInfo,
        gpuBrand: r.gpuBrand,
        platformType: r.platformType,
        description: r.description,
      }));
    },
  };
}
