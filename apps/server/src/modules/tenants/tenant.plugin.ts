import { TENANT_HEADER } from '@gpu/shared';
import type { FastifyInstance } from 'fastify';
import type { TenantRecord } from './tenants.repository.ts';
import type { TenantService } from './tenants.usecases.ts';

export function registerTenantResolution(app: FastifyInstance, tenants: TenantService) {
  app.decorateRequest('tenant', null as unknown as TenantRecord);
  const header = TENANT_HEADER.toLowerCase();
  // A callback hook: a known host needs no database, and then no promise (issue 15).
  app.addHook('onRequest', (request, _reply, done) => {
    // Health and docs must answer even when tenants cannot be read.
    const url = request.url;
    if (!url.startsWith('/api/') || url.startsWith('/api/docs') || url.startsWith('/api/health'))
      return done();
    const value = request.headers[header];
    const host = (Array.isArray(value) ? value[0] : value) || request.headers.host;
    const known = tenants.resolveNow(host);
    if (known) {
      request.tenant = known;
      return done();
    }
    tenants.resolve(host).then((tenant) => {
      request.tenant = tenant;
      done();
    }, done);
  });
}
