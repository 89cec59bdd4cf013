import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
  /** Products offered on the bare-metal enquiry form; absent or empty means the default list. */
  enquiryProducts?: string[];
  /** The page /ai-navigation embeds; absent means the platform default. */
  aiNavigationUrl?: string;
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

/**
 * Which hosts a tenant may sell. A tenant with no rows sells every host of its visible regions;
 * with rows, only those hosts. (Host ids, not a foreign key, so this file needs no hosts import.)
 */
export const tenantHosts = pgTable(
  'tenant_hosts',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    hostId: integer('host_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.hostId] })],
);

/**
 * A tenant's own price for a SKU, in 0.0001-yuan units: hourly, and optionally per day/week/month
 * of one GPU (null falls back to the platform's package price).
 */
export const tenantSkuPrices = pgTable(
  'tenant_sku_prices',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    skuId: integer('sku_id').notNull(),
    hourlyPrice: bigint('hourly_price', { mode: 'number' }).notNull(),
    dailyPrice: bigint('daily_price', { mode: 'number' }),
    weeklyPrice: bigint('weekly_price', { mode: 'number' }),
    monthlyPrice: bigint('monthly_price', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.skuId] })],
);

/** Images the back office uploads (logos, QR codes): in the database, so every replica serves them. */
export const uploadedFiles = pgTable('uploaded_files', {
  id: text('id').primaryKey(),
  contentType: text('content_type').notNull(),
  /** Base64 of the bytes (at most UPLOAD_MAX_BYTES). */
  data: text('data').notNull(),
  size: integer('size').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
