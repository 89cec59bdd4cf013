import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../paths.ts';
import { fail } from './envelope.ts';

export const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');

/** Serves the built SPA on the API's port; unknown non-API GETs get index.html (history fallback). */
export async function registerSpa(app: FastifyInstance, distDir = WEB_DIST) {
  const hasSpa = existsSync(path.join(distDir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up per request, so a rebuild is served without a restart.
      wildcard: true,
      // The build writes .br/.gz next to each asset (apps/web/scripts/compress.ts): sent as they are.
      preCompressed: true,
      // Hashed assets never change; index.html must always be fetched anew.
      setHeaders: (res, file) => {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    // A missing hashed asset is a 404: index.html in its place would be run as script and fail silently.
    const isAsset = request.url.startsWith('/assets/');
    if (!isApi && !isAsset && hasSpa && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(fail(404, isApi ? '接口不存在' : '页面不存在'));
  });
}
