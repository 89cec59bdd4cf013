import type { TenantRecord } from './tenants.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of this request: X-Tenant-Host, else Host, else the default tenant. */
    tenant: TenantRecord;
  }
}
