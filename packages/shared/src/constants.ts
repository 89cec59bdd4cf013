/** Business constants of SPEC.md §9, in one place for both server and web. */
export const API_TIMEOUT_MS = 10_000;
export const API_BASE = '/api';
export const TENANT_HEADER = 'X-Tenant-Host';

export const MARKET_PAGE_SIZES = [12, 24, 36, 48] as const;
export const MARKET_DEFAULT_PAGE_SIZE = 12;
export const GPU_COUNT_MIN = 1;
export const GPU_COUNT_MAX = 8;
export const MODEL_FILTER_CAP = 20;

export const DEFAULT_SYSTEM_DISK_GB = 30;
export const DEFAULT_DATA_DISK_GB = 50;

export const INSTANCE_NAME_MAX = 50;

export const VOUCHER_LIST_SIZE = 100;
export const VOUCHER_EXPIRING_DAYS = 7;
export const VOUCHER_EXPIRING_DAYS_SUBSCRIBE = 3;

export const BALANCE_REFRESH_DELAY_MS = 500;
export const MARKET_RETRY_SYNC_MS = 30_000;
export const MARKET_RETRY_MIN_ITEMS = 10;
export const DISCOUNT_TICK_MS = 30_000;
export const DISCOUNT_FAST_TICK_MS = 1_000;
export const DISCOUNT_FAST_THRESHOLD_MS = 120_000;

/**
 * Yuan per US dollar, in tenths (7.2): the fixed credit rate of a stablecoin payment and the
 * default conversion of vast.ai's USD prices (VASTAI_USD_CNY overrides the latter).
 */
export const USD_CNY_TENTHS = 72;

export const RECHARGE_MIN = 100;
export const RECHARGE_MAX = 100_000;
export const RECHARGE_PRESETS = [200, 500, 1000, 5000, 10000] as const;
export const PAYMENT_COUNTDOWN_S = 600;
export const PAYMENT_POLL_MS = 1_000;
export const PAYMENT_POLL_MAX = 300;
export const PAYMENT_QR_SIZE = 200;

export const VERIFICATION_CODE_LENGTH = 6;
export const CODE_RESEND_COOLDOWN_S = 60;
export const PHONE_LENGTH = 11;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 100;
export const RESET_PASSWORD_MAX = 16;
export const SALES_NAME_MAX = 100;
export const RESET_REDIRECT_DELAY_MS = 1_500;
export const DEFAULT_POST_LOGIN_ROUTE = '/market';

/** Fallback package pricing when no config exists (SPEC.md §9). */
export const PACKAGE_FALLBACK = {
  daily: { factor: 0.85, hours: 24 },
  weekly: { factor: 0.75, hours: 168 },
  monthly: { factor: 0.65, hours: 720 },
} as const;

export const BILLING_TYPES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/**
 * A package's end: `duration` periods after `from` (day = 24 h, week = 168 h, month = 720 h, as
 * PACKAGE_FALLBACK's hours); null for pay-as-you-go. The server stores it as the instance's expiry;
 * the order confirm shows it.
 */
export function packageEnd(billingType: BillingType, duration: number, from: Date): Date | null {
  if (billingType === 'hourly') return null;
  return new Date(from.getTime() + PACKAGE_FALLBACK[billingType].hours * 3_600_000 * duration);
}

/** Duration limits per package billing type (SPEC.md §5). */
export const DURATION_LIMITS = {
  daily: { min: 1, max: 6 },
  weekly: { min: 1, max: 3 },
  monthly: { min: 1, max: 3 },
} as const;

/** Names of the browser events that other parts react to (SPEC.md §9). */
export const APP_EVENTS = {
  balance: 'balance-changed',
  voucher: 'voucher-changed',
  instanceCreated: 'instance-created',
  instanceDeleted: 'instance-deleted',
  instanceStarted: 'instance-started',
  instanceStopped: 'instance-stopped',
} as const;

/** Power on's refusal when the instance's own GPUs were taken: the console then offers `gpus=any`. */
export const ORIGINAL_GPUS_TAKEN_MESSAGE =
  '实例原来使用的GPU已被占用：可以使用该主机的其他空闲GPU开机（数据保留），或稍后再试';

/**
 * No-GPU mode's price (无卡模式, issue 30), yuan per hour, for a region whose admin set none: the
 * platform's default (AutoDL's ¥0.10/h). Each region keeps its own (back office → 地区).
 */
export const NO_GPU_DEFAULT_HOURLY_PRICE = 0.1;
