import { TENANT_HEADER } from '@gpu/shared';
import type { FastifyInstance } from 'fastify';
import type { TenantRecord } from '../../modules/tenants/tenants.repository.ts';
import type { TenantService } from '../../modules/tenants/tenants.usecases.ts';

export function registerTenantResolution(app: FastifyInstance, tenants: TenantService) {
  app.decorateRequest('tenant', null as unknown as TenantRecord);
  app.addHook('onRequest', async (request) => {
    // Health and docs must answer even when tenants cannot be read.
    const url = request.url;
    if (!url.startsWith('/api/') || url.startsWith('/api/docs') || url.startsWith('/api/health')) return;
    const header = request.headers[TENANT_HEADER.toLowerCase()];
    const host = (Array.isArray(header) ? header[0] : header) || request.headers.host;
    request.tenant = await tenants.resolve(host);
  });
}
