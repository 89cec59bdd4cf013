import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { ACCESS_TOKEN_PREFIX } from '@gpu/shared';
import type { FastifyContextConfig } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requiresUser, routeAccess } from '../modules/auth/index.ts';
import type { AppInstance } from '../platform/http/types.ts';
import { customerDocument, type OpenApiDocument } from './api-docs-document.ts';
import type { Config } from './config.ts';

/** The console's page that shows the document to signed-in users (API_DOCS=signed-in). */
export const API_DOCS_PAGE = '/console/api-docs';

/**
 * The zod type provider writes a body's JSON Schema without its `.meta({ examples })`: put them
 * back from zod's registry, so a request example is the real one, not a generated "string".
 */
function withBodyExamples<T extends { schema?: object }>(
  zodSchema: { body?: unknown } | undefined,
  out: T,
): T {
  const body = (out.schema as { body?: Record<string, unknown> } | undefined)?.body;
  if (!(zodSchema?.body instanceof z.ZodType) || !body || body.examples) return out;
  const examples = z.globalRegistry.get(zodSchema.body)?.examples;
  return examples ? { ...out, schema: { ...out.schema, body: { ...body, examples } } } : out;
}

const servedOf = new WeakMap<object, string[]>();
/** `METHOD /url` of every route the document may show (not hidden, no HEAD), as Fastify has them. */
export const documentedRoutes = (app: AppInstance): readonly string[] => servedOf.get(app) ?? [];

/**
 * The OpenAPI document: the full one (every route, admins at /api/admin/docs/json) and the
 * customer one (/api/docs/json: public, or for signed-in users). Registered before the
 * modules' routes, so that it sees them all.
 */
export async function registerApiDocs(app: AppInstance, config: Config) {
  const served: string[] = [];
  servedOf.set(app, served);
  app.addHook('onRoute', (route) => {
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') served.push(`${method} ${route.url}`);
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'GPU 算力租赁平台 API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: `个人访问令牌（${ACCESS_TOKEN_PREFIX}…，账号安全 → API令牌）或控制台登录的 accessToken`,
          },
        },
      },
    },
    // Facts of the route itself (who may call it) go in here; errors and examples are the
    // customer document's (api-docs-document.ts).
    transform: (input) => {
      const out = withBodyExamples(input.schema as { body?: unknown }, jsonSchemaTransform(input));
      const route = input.route as unknown as Record<string, unknown> & { method: string | string[] };
      if (!requiresUser(app, route)) return out;
      const method = [route.method].flat()[0] ?? 'GET';
      return {
        ...out,
        schema: {
          ...out.schema,
          security: [{ bearer: [] }],
          'x-access': routeAccess(method, input.route.config as FastifyContextConfig),
        },
      };
    },
  });

  let customer: OpenApiDocument | undefined;
  const customerDoc = () => {
    customer ??= customerDocument(app.swagger() as unknown as OpenApiDocument);
    return customer;
  };
  app.get(
    '/api/admin/docs/json',
    { onRequest: app.requireAdmin, schema: { tags: ['admin-docs'], summary: '完整 API 文档（含管理接口）' } },
    async () => app.swagger(),
  );
  if (config.apiDocs === 'public') {
    await app.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      transformSpecificationClone: false,
      transformSpecification: () => customerDoc(),
    });
    return;
  }
  // Signed-in: the document for any signed-in user or token; the page lives in the console.
  app.get('/api/docs/json', { onRequest: app.requireUser, schema: { hide: true } }, async () =>
    customerDoc(),
  );
  for (const url of ['/api/docs', '/api/docs/']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.redirect(API_DOCS_PAGE, 302));
  }
}
