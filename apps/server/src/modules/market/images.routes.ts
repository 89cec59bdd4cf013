import { envelopeSchema, imageListSchema, imageQuerySchema, imageSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { groupImages } from './images.models.ts';
import { createImagesRepository } from './images.repository.ts';
import type { MarketDeps } from './market.deps.ts';

export async function imagesRoutes(app: AppInstance, deps: MarketDeps) {
  const repo = createImagesRepository(deps);
  app.get(
    '/api/gpu/images',
    {
      schema: {
        tags: ['market'],
        summary: '镜像目录（级联选择用 imageMap 与平铺 imageList）',
        querystring: imageQuerySchema,
        response: { 200: envelopeSchema(imageListSchema) },
      },
    },
    async (request) => {
      const list = await repo.list(request.query);
      return ok({ imageMap: groupImages(list), imageList: list });
    },
  );
  app.get(
    '/api/gpu/preset-images',
    {
      schema: {
        tags: ['market'],
        summary: '推荐镜像',
        response: { 200: envelopeSchema(z.array(imageSchema)) },
      },
    },
    async () => ok(await repo.list({ preset: true })),
  );
}
