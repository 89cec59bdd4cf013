import type { Image, ImageMap } from '@gpu/shared/images';
import { cudaAtMost } from '@gpu/shared/vastai';

/** The cascader's images an overseas offer can run: CUDA at most the offer's (empty groups dropped). */
export function imagesForOffer(map: ImageMap | undefined, offerCuda: string): ImageMap | undefined {
  if (!map) return map;
  const keep = (i: Image) => cudaAtMost(i.cudaVersion, offerCuda);
  const out: ImageMap = {};
  for (const [framework, versions] of Object.entries(map)) {
    for (const [version, groups] of Object.entries(versions)) {
      for (const [group, images] of Object.entries(groups)) {
        const kept = images.filter(keep);
        if (kept.length === 0) continue;
        out[framework] ??= {};
        (out[framework] as Record<string, Record<string, Image[]>>)[version] ??= {};
        ((out[framework] as Record<string, Record<string, Image[]>>)[version] as Record<string, Image[]>)[
          group
        ] = kept;
      }
    }
  }
  return out;
}
