import { z } from 'zod';
import { type BillingType, DURATION_LIMITS, PACKAGE_FALLBACK } from './constants.ts';
import { idSchema } from './input.ts';

/**
 * Pure pricing (DESIGN §5), all in integer 0.0001-yuan units; the server charges with it and
 * the web displays with it, so the two never disagree.
 */
export type PackageType = Exclude<BillingType, 'hourly'>;
export const PACKAGE_TYPES: PackageType[] = ['daily', 'weekly', 'monthly'];

/** Discount rate in basis points of the price paid: 8000 = 8折 (pay 80 %). */
export const RATE_SCALE = 10_000;

export interface PackagePrices {
  daily: number;
  weekly: number;
  monthly: number;
}

/** One GPU for one period: the configured package price, else SPEC.md §9's fallback factor. */
export function packageUnitPrice(
  hourly: number,
  type: PackageType,
  configured?: PackagePrices | null,
): number {
  const set = configured?.[type];
  if (set && set > 0) return set;
  const f = PACKAGE_FALLBACK[type];
  return Math.round(hourly * f.factor * f.hours);
}

export const applyRate = (units: number, rateBp: number | null | undefined) =>
  rateBp == null ? units : Math.floor((units * rateBp) / RATE_SCALE);

export interface OrderPriceInput {
  /** Hourly price of one GPU (tenant price if any). */
  hourlyPrice: number;
  billingType: BillingType;
  /** Periods for packages; ignored for hourly. */
  duration: number;
  gpuAmount: number;
  packagePrices?: PackagePrices | null;
  /** Active discount, basis points of the price paid; null for none. */
  discountRateBp?: number | null;
  /** What the chosen voucher still holds; null for none. */
  voucherRemaining?: number | null;
}

export interface OrderPrice {
  /** Price of one GPU for one period (hour, day, week, month) before discount. */
  unitPrice: number;
  /** The same after discount. */
  discountedUnitPrice: number;
  /** Order amount before discount: unit × GPUs × periods (hourly: one hour). */
  originalAmount: number;
  discountAmount: number;
  voucherDeduction: number;
  /** What the balance pays now (hourly: what must be available to start). */
  payableAmount: number;
}

export function computeOrderPrice(input: OrderPriceInput): OrderPrice {
  const periods = input.billingType === 'hourly' ? 1 : input.duration;
  const unitPrice =
    input.billingType === 'hourly'
      ? input.hourlyPrice
      : packageUnitPrice(input.hourlyPrice, input.billingType, input.packagePrices);
  const discountedUnitPrice = applyRate(unitPrice, input.discountRateBp);
  const originalAmount = unitPrice * input.gpuAmount * periods;
  const discounted = discountedUnitPrice * input.gpuAmount * periods;
  // SPEC.md §5: deduction = min(remaining, order amount).
  const voucherDeduction = Math.max(0, Math.min(input.voucherRemaining ?? 0, discounted));
  return {
    unitPrice,
    discountedUnitPrice,
    originalAmount,
    discountAmount: originalAmount - discounted,
    voucherDeduction,
    payableAmount: discounted - voucherDeduction,
  };
}

// Display helpers live in a zod-free module, so a screen that only shows prices does not load zod.
export { discountPercentOff, discountZhe, displayPrices } from './price-display.ts';

export function durationError(billingType: BillingType, duration: number): string | null {
  if (billingType === 'hourly') return null;
  const { min, max } = DURATION_LIMITS[billingType];
  const unit = { daily: '天', weekly: '周', monthly: '个月' }[billingType];
  if (!Number.isInteger(duration) || duration < min || duration > max) return `时长须为${min}-${max}${unit}`;
  return null;
}

export const discountResultSchema = z.object({
  originalPrice: z.number(),
  discountPrice: z.number(),
  /** Fraction of the price paid, e.g. 0.8; 1 without discount. */
  discountRate: z.number(),
  hasDiscount: z.boolean(),
  discountDescription: z.string(),
  endTime: z.string().nullable(),
});
export type DiscountResult = z.infer<typeof discountResultSchema>;

export const packagePricingSchema = z.object({
  gpuType: z.string(),
  regionId: z.number().int(),
  platform: z.string(),
  dailyPrice: z.number(),
  weeklyPrice: z.number(),
  monthlyPrice: z.number(),
});
export type PackagePricing = z.infer<typeof packagePricingSchema>;

export const billingTypeSchema = z.enum(['hourly', 'daily', 'weekly', 'monthly'], {
  message: '计费方式只能是 hourly、daily、weekly 或 monthly',
});

export const calculatePriceRequestSchema = z
  .object({
    machineId: idSchema('请选择GPU机器'),
    billingType: billingTypeSchema,
    duration: z.coerce.number().int('时长必须为整数').default(1),
    gpuAmount: z.coerce.number().int('GPU数量必须为整数').min(1, 'GPU数量至少为1').max(8, 'GPU数量最多为8'),
    voucherId: idSchema('代金券编号无效').optional(),
  })
  .superRefine((r, ctx) => {
    const err = durationError(r.billingType, r.duration);
    if (err) ctx.addIssue({ code: 'custom', message: err, path: ['duration'] });
  });

export const calculatePriceResponseSchema = z.object({
  billingType: billingTypeSchema,
  duration: z.number().int(),
  gpuAmount: z.number().int(),
  unitPrice: z.number(),
  discountedUnitPrice: z.number(),
  originalAmount: z.number(),
  discountAmount: z.number(),
  voucherDeduction: z.number(),
  payableAmount: z.number(),
  discountRate: z.number(),
  discountEndTime: z.string().nullable(),
});
export type CalculatePriceResponse = z.infer<typeof calculatePriceResponseSchema>;
