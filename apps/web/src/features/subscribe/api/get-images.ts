import type { Image, ImageMap } from '@gpu/shared/images';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { subscribeKeys } from './keys';

export interface ImageCatalogue {
  imageMap: ImageMap;
  imageList: Image[];
}

export type ImagePlatform = 'local' | 'vast.ai';

/** GET /api/gpu/images: the images made for this GPU brand, grouped for the cascader. */
export const useImages = (gpuBrand: string, platformType: ImagePlatform) =>
  useQuery({
    queryKey: subscribeKeys.images(gpuBrand, platformType),
    queryFn: ({ signal }) =>
      api.get<ImageCatalogue>('/gpu/images', { query: { gpuBrand, platformType }, signal }),
    staleTime: 5 * 60_000,
  });
