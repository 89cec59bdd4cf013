import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** What a tenant shows: SPEC.md §3 tenant config less the identifying fields. */
export interface TenantSettings {
  logoUrl: string;
  logoDarkUrl: string;
  faviconUrl: string;
  theme: {
    primaryColor: string;
    secondaryColor: string;
    backgroundColor: string;
    gradientStart: string;
    gradientEnd: string;
  };
  homepage: {
    title: string;
    titleColor: string;
    subtitle: string;
    subtitleColor: string;
    description: string;
    heroImage: string;
  };
  contact: { phone: string; email: string; supportUrl: string };
  footer: { beianNumber: string; wechatOfficialQr: string; wechatServiceQr: string };
  /** Region ids this tenant shows; empty means every region. */
  visibleRegionResources: number[];
}

export const tenants = pgTable(
  'tenants',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    /** ACTIVE or DISABLED; a disabled tenant's hosts fall back to the default tenant. */
    status: text('status').notNull().default('ACTIVE'),
    /** The tenant for unknown host names; exactly one. */
    isDefault: boolean('is_default').notNull().default(false),
    config: jsonb('config').$type<TenantSettings>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tenants_one_default').on(t.isDefault).where(sql`${t.isDefault}`)],
);

/** Browser host names that resolve to a tenant (lower case, no port). */
export const tenantDomains = pgTable('tenant_domains', {
  host: text('host').primaryKey(),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
