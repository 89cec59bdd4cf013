// Every feature's tables, for Drizzle's query builder and drizzle-kit.
export * from '../modules/audit/audit.tables.ts';
export * from '../modules/auth/auth.tables.ts';
export * from '../modules/blockchain/blockchain.tables.ts';
export * from '../modules/contact/contact.tables.ts';
export * from '../modules/discounts/discounts.tables.ts';
export * from '../modules/hosts/catalog.tables.ts';
export * from '../modules/hosts/hosts.tables.ts';
export * from '../modules/idempotency/idempotency.tables.ts';
export * from '../modules/instances/instances.tables.ts';
export * from '../modules/ledger/ledger.tables.ts';
export * from '../modules/market/package-prices.tables.ts';
export * from '../modules/notices/notices.tables.ts';
export * from '../modules/payments/payments.tables.ts';
export * from '../modules/tenants/tenants.tables.ts';
export * from '../modules/vastai/vastai.tables.ts';
export * from '../modules/vouchers/vouchers.tables.ts';
export * from '../platform/db/meta.tables.ts';
