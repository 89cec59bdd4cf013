import { aiNavigationSchema, envelopeSchema, tenantConfigSchema, tenantListItemSchema } from '@gpu/shared';
import { aiNavigationUrl } from '@gpu/shared/ai-navigation';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { TenantsDeps } from './tenants.deps.ts';
import { tenantErrors } from './tenants.errors.ts';
import { normalizeHost, toTenantConfig } from './tenants.models.ts';

export async function tenantsRoutes(
  app: AppInstance,
  { service: tenants, isProduction, embedProbe }: TenantsDeps,
) {
  app.get(
    '/api/tenant/config',
    {
      schema: {
        tags: ['tenant'],
        summary: '当前租户配置',
        querystring: z.object({ tenant: z.string().max(64).optional() }),
        response: { 200: envelopeSchema(tenantConfigSchema) },
      },
    },
    async (request) => {
      // The development tenant switcher may name a tenant; production always goes by host.
      if (request.query.tenant && !isProduction) {
        const chosen = await tenants.findByCode(request.query.tenant);
        if (!chosen) throw tenantErrors.unknownCode(request.query.tenant);
        return ok(toTenantConfig(chosen));
      }
      return ok(toTenantConfig(request.tenant));
    },
  );

  app.get(
    '/api/tenant/ai-navigation',
    {
      schema: {
        tags: ['tenant'],
        summary: 'AI导航页面及能否内嵌显示',
        response: { 200: envelopeSchema(aiNavigationSchema) },
      },
    },
    async (request) => {
      const url = aiNavigationUrl(request.tenant.config.aiNavigationUrl);
      // An https page never shows an http frame (mixed content), whatever the site allows.
      const mixed = request.protocol === 'https' && url.startsWith('http:');
      return ok({
        url,
        embed: mixed ? 'refused' : embedProbe.status(url, normalizeHost(request.headers.host)),
      });
    },
  );

  if (!isProduction) {
    app.get(
      '/api/tenant/list',
      {
        schema: {
          tags: ['tenant'],
          summary: '租户列表（仅开发环境）',
          response: { 200: envelopeSchema(z.array(tenantListItemSchema)) },
        },
      },
      async () => {
        const list = await tenants.list();
        return ok(
          list.map((t) => ({ tenantId: t.id, tenantCode: t.code, tenantName: t.name, domain: t.domain })),
        );
      },
    );
  }
}
