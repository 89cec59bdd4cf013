export * from './audit.ts';
export * from './auth.ts';
export * from './bills.ts';
export * from './constants.ts';
export * from './envelope.ts';
export * from './hosts.ts';
export * from './images.ts';
export * from './input.ts';
export * from './instances.ts';
export * from './labels.ts';
export * from './market.ts';
export * from './money.ts';
export * from './payments.ts';
export * from './pricing.ts';
export * from './tenant.ts';
// The defaults live in a zod-free module, so the browser can use them without bundling zod.
export * from './tenant-defaults.ts';
export * from './zod-locale.ts';
