import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { type TenantSettings, tenantDomains, tenants } from './tenants.tables.ts';

export interface TenantRecord {
  id: number;
  code: string;
  name: string;
  status: string;
  isDefault: boolean;
  config: TenantSettings;
  /** The first domain registered for the tenant, '' when none. */
  domain: string;
}

const primaryDomain = sql<string>`coalesce((select min(${tenantDomains.host}) from ${tenantDomains} where ${tenantDomains.tenantId} = ${tenants.id}), '')`;

const columns = {
  id: tenants.id,
  code: tenants.code,
  name: tenants.name,
  status: tenants.status,
  isDefault: tenants.isDefault,
  config: tenants.config,
  domain: primaryDomain,
};

export function createTenantsRepository({ db }: { db: DbOrTx }) {
  return {
    async findByHost(host: string): Promise<TenantRecord | undefined> {
      const rows = await db
        .select(columns)
        .from(tenantDomains)
        .innerJoin(tenants, eq(tenants.id, tenantDomains.tenantId))
        .where(eq(tenantDomains.host, host))
        .limit(1);
      return rows[0];
    },
    async findDefault(): Promise<TenantRecord | undefined> {
      const rows = await db.select(columns).from(tenants).where(eq(tenants.isDefault, true)).limit(1);
      return rows[0];
    },
    async findByCode(code: string): Promise<TenantRecord | undefined> {
      const rows = await db.select(columns).from(tenants).where(eq(tenants.code, code)).limit(1);
      return rows[0];
    },
    /** Every host name and its tenant (a small table, read whole by the tenant cache). */
    listDomains(): Promise<Array<{ host: string; tenantId: number }>> {
      return db.select({ host: tenantDomains.host, tenantId: tenantDomains.tenantId }).from(tenantDomains);
    },
    /** The version every tenant write bumps (app_meta `tenants.version`); 0 before the first. */
    async version(): Promise<number> {
      const [row] = await db
        .select({ value: appMeta.value })
        .from(appMeta)
        .where(eq(appMeta.key, 'tenants.version'))
        .limit(1);
      return Number(row?.value ?? 0);
    },
    list(): Promise<TenantRecord[]> {
      return db.select(columns).from(tenants).orderBy(asc(tenants.id));
    },
    async insert(input: {
      code: string;
      name: string;
      isDefault: boolean;
      config: TenantSettings;
      domains: string[];
    }) {
      const [row] = await db
        .insert(tenants)
        .values({ code: input.code, name: input.name, isDefault: input.isDefault, config: input.config })
        .returning({ id: tenants.id });
      if (!row) throw new Error('tenant insert returned no row');
      if (input.domains.length > 0) {
        await db.insert(tenantDomains).values(input.domains.map((host) => ({ host, tenantId: row.id })));
      }
      return row.id;
    },
  };
}
