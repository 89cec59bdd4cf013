export * from './auth.ts';
export * from './constants.ts';
export * from './envelope.ts';
export * from './hosts.ts';
export * from './market.ts';
export * from './money.ts';
export * from './tenant.ts';
export * from './zod-locale.ts';
