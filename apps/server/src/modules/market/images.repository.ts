import type { Image } from '@gpu/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import { images } from './market.tables.ts';

export function createImagesRepository({ db }: { db: DbOrTx }) {
  return {
    async list(q: { gpuBrand?: string; platformType?: string; preset?: boolean }): Promise<Image[]> {
      const rows = await db
        .select()
        .from(images)
        .where(
          and(
            eq(images.enabled, true),
            q.gpuBrand ? sql`lower(${images.gpuBrand}) = lower(${q.gpuBrand})` : undefined,
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
    /** The image by URL if enabled and made for this GPU brand (instance creation checks this). */
    async findUsable(imageUrl: string, gpuBrand: string): Promise<Image | undefined> {
      return (await this.list({ gpuBrand })).find((i) => i.imageUrl === imageUrl);
    },
  };
}
