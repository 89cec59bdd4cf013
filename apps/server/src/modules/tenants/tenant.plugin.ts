import { TENANT_HEADER } from '@gpu/shared';
import type { FastifyInstance } from 'fastify';
import type { TenantRecord } from './tenants.repository.ts';
import type { TenantService } from './tenants.usecases.ts';

export function registerTenantResolution(app: FastifyInstance, tenants: TenantService) {
  app.decorateRequest('tenant', null as unknown as TenantRecord);
  const header = TENANT_HEADER.toLowerCase();
  // A callback hook: a known host needs no database, and then no promise (issue 15).
  app.addHook('onRequest', (request, _reply, done) => {
    // Health and the docs page must answer even when tenants cannot be read; the document's JSON
    // may need a signed-in user, whose token belongs to a tenant.
    const url = request.url;
    const docsPage = url.startsWith('/api/docs') && !url.startsWith('/api/docs/json');
    if (!url.startsWith('/api/') || docsPage || url.startsWith('/api/health')) return done();
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
