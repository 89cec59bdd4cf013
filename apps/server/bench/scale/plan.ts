import { FEN, NO_GPU_DEFAULT_HOURLY_PRICE, yuanToUnits } from '@gpu/shared';

/**
 * The 100 % fleet of issue 33. Every count scales with the fraction except tenants, regions and
 * the whale; per-customer counts are fixed shares (100 ledger rows per user …), so a user's rows
 * are one contiguous block of indexes and a larger fraction adds whole users with all their rows.
 */
export const SCALE = {
  tenants: 3,
  regions: 8,
  hosts: 1_000,
  gpusPerHost: 8,
  gpus: 8_000,
  gpuModels: 12,
  users: 100_000,
  runningInstances: 20_000,
  releasedInstances: 200_000,
  ledgerEntries: 10_000_000,
  billLines: 10_000_000,
  auditEntries: 1_000_000,
  rechargeOrders: 2_000_000,
  vouchers: 500_000,
  voucherConfigs: 12,
  discounts: 100,
  /** Host ports per host (the pool's rows; SSH and JupyterLab of each running instance). */
  portsPerHost: 200,
  /** Running instances with 30 days of 5-minute rollups: one per this many hosts (see report). */
  rollupHostsPerInstance: 10,
  rollupDays: 30,
} as const;

/** Per-customer and per-host shares derived from SCALE (all whole numbers). */
export const PER = {
  ledgerPerUser: SCALE.ledgerEntries / SCALE.users, // 100
  billsPerUser: SCALE.billLines / SCALE.users, // 100
  rechargePerUser: SCALE.rechargeOrders / SCALE.users, // 20
  vouchersPerUser: SCALE.vouchers / SCALE.users, // 5
  releasedPerUser: SCALE.releasedInstances / SCALE.users, // 2
  usersPerRunning: SCALE.users / SCALE.runningInstances, // 5
  runningPerHost: SCALE.runningInstances / SCALE.hosts, // 20
  releasedPerHost: SCALE.releasedInstances / SCALE.hosts, // 200
  auditPerUser: SCALE.auditEntries / SCALE.users, // 10
} as const;

/** The customer with deep pages: fixed counts (≥ 10,010 rows in every list) at any fraction. */
export const SCALE_WHALE = { phone: '19900000000', password: 'Scale-whale-2026' } as const;
export const WHALE = {
  released: 10_010,
  /** Its running instances hold every GPU of a host of its own (so their allocation is plain). */
  running: 8,
  /** Ledger rows: the per-user pattern repeated (10 rows a block, one recharge each). */
  ledger: 10_100,
  orderLines: 10_010,
  meteringLines: 10_010,
  rechargeOrders: 10_010,
  vouchers: 10_010,
} as const;

export const SCALE_TENANTS = [
  { code: null, name: '' }, // the default tenant, whatever its code
  { code: 'aurora', name: '极光智算', host: '127.0.0.1' },
  { code: 'nebula', name: '星云算力', host: 'nebula.localhost' },
] as const;

/** Eight regions: the demo's five (same codes, so a demo database reuses them) and three more. */
export const SCALE_REGIONS = [
  { name: '安徽A区', code: 'anhui-a', sortOrder: 10, overseas: false },
  { name: '北京A区', code: 'beijing-a', sortOrder: 20, overseas: false },
  { name: '广东B区', code: 'guangdong-b', sortOrder: 30, overseas: false },
  { name: '内蒙古A区', code: 'neimenggu-a', sortOrder: 40, overseas: false },
  { name: '海外区（美国）', code: 'overseas-us', sortOrder: 900, overseas: true },
  { name: '华东C区', code: 'huadong-c', sortOrder: 50, overseas: false },
  { name: '西南A区', code: 'xinan-a', sortOrder: 60, overseas: false },
  { name: '华北B区', code: 'huabei-b', sortOrder: 70, overseas: false },
] as const;

/** Twelve GPU models: name, brand, memory (GB), hourly price of one GPU (yuan). */
export const SCALE_MODELS = [
  ['RTX 4090', 'NVIDIA', 24, 1.98],
  ['RTX 3090', 'NVIDIA', 24, 1.38],
  ['A100 80GB', 'NVIDIA', 80, 7.58],
  ['H100 80GB', 'NVIDIA', 80, 15.8],
  ['L40S', 'NVIDIA', 48, 3.98],
  ['Ascend 910B', 'HUAWEI', 64, 4.5],
  ['A10', 'NVIDIA', 24, 1.28],
  ['V100 32GB', 'NVIDIA', 32, 2.2],
  ['A800', 'NVIDIA', 80, 6.8],
  ['H800', 'NVIDIA', 80, 13.5],
  ['RTX 4080', 'NVIDIA', 16, 1.18],
  ['MTT S4000', 'MTHREADS', 48, 2.6],
] as const;

/** Busy GPUs (held by running instances) of host h: this list at h mod 10 (mean 5.4 of 8). */
export const BUSY_GPUS = [8, 6, 7, 5, 8, 3, 6, 7, 0, 4] as const;

export const UNITS = {
  recharge: yuanToUnits(1_000),
  charge: yuanToUnits(80),
  refund: yuanToUnits(10),
  voucher: yuanToUnits(50),
  noGpuRate: yuanToUnits(NO_GPU_DEFAULT_HOURLY_PRICE),
  fen: FEN,
} as const;

/** The first row index of `fraction` for a table of `total` rows at 100 %. */
export const upTo = (fraction: number, total: number) => Math.floor(fraction * total + 1e-9);

/** A SQL string literal. */
export const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A SQL int array literal, 1-based lookups as `(array[...])[k + 1]`. */
export const intArray = (xs: readonly number[]) => `(array[${xs.join(',')}]::int[])`;
export const textArray = (xs: readonly string[]) => `(array[${xs.map(lit).join(',')}]::text[])`;

/** What every generator needs: the anchor time, id bases (reserved ranges) and looked-up ids. */
export interface SeedContext {
  /** ISO time all rows are placed relative to (recorded at the first seed: rows stay deterministic). */
  anchor: string;
  base: Record<IdTable, number>;
  tenantIds: number[];
  regionIds: number[];
  passwordHash: string;
  sealedPassword: string;
  sealedToken: string;
  adminId: number | null;
}

/** Tables whose ids the seed chooses: a range reserved at the first seed, so increments never collide. */
export const ID_TABLES = {
  users: SCALE.users + 1,
  hosts: SCALE.hosts + 1,
  host_gpus: SCALE.gpus + 8,
  gpu_skus: SCALE.hosts + 1,
  instances: SCALE.runningInstances + SCALE.releasedInstances + WHALE.released + WHALE.running,
  instance_events: SCALE.runningInstances + 2 * SCALE.releasedInstances + 2 * WHALE.released + WHALE.running,
  billing_records: SCALE.billLines + WHALE.orderLines + WHALE.meteringLines,
  ledger_entries: SCALE.ledgerEntries + WHALE.ledger,
  recharge_orders: SCALE.rechargeOrders + WHALE.rechargeOrders,
  vouchers: SCALE.vouchers + WHALE.vouchers,
  voucher_configs: SCALE.voucherConfigs,
  discounts: SCALE.discounts,
  audit_log: SCALE.auditEntries,
} as const;
export type IdTable = keyof typeof ID_TABLES;

/** `anchor` as a SQL timestamptz. */
export const at = (ctx: SeedContext) => `${lit(ctx.anchor)}::timestamptz`;
