import { z } from 'zod';
import { type BillingType, DURATION_LIMITS, PACKAGE_FALLBACK } from './constants.ts';
import { idSchema } from './input.ts';
import { fenOfRatio } from './money.ts';
import { voucherDeduction as voucherDeduction_ } from './vouchers.ts';

/**
 * Pure pricing (DESIGN §5), all in integer 0.0001-yuan units; the server charges with it and
 * the web displays with it, so the two never disagree.
 */
export type PackageType = Exclude<BillingType, 'hourly'>;
/** Discount rate in basis points of the price paid: 8000 = 8折 (pay 80 %). */
export const RATE_SCALE = 10_000;

export interface PackagePrices {
  daily: number;
  weekly: number;
  monthly: number;
}

/**
 * The exact price of one GPU for one period, as the rational `num / den` units: the configured
 * package price, else SPEC.md §9's fallback factor (hourly × factor × hours, not rounded yet).
 */
function exactUnitPrice(
  hourly: number,
  type: BillingType,
  configured?: PackagePrices | null,
): { num: bigint; den: bigint } {
  if (type === 'hourly') return { num: BigInt(hourly), den: 1n };
  const set = configured?.[type];
  if (set && set > 0) return { num: BigInt(set), den: 1n };
  const f = PACKAGE_FALLBACK[type];
  return {
    num: BigInt(hourly) * BigInt(Math.round(f.factor * RATE_SCALE)) * BigInt(f.hours),
    den: BigInt(RATE_SCALE),
  };
}

export interface UnitPrices {
  /** One GPU for one period (hour, day, week, month) before discount; whole fen. */
  unitPrice: number;
  /** The same after discount; whole fen. */
  discountedUnitPrice: number;
}

/**
 * THE rounding of prices (issue 10): each price is computed exactly (hourly or package price,
 * fallback factor, discount rate) and rounded half up to whole fen ONCE, so the market, the
 * subscribe screen, calculate-price, create and renewal (which reuses the snapshot) all agree.
 */
export function unitPrices(
  hourly: number,
  type: BillingType,
  configured?: PackagePrices | null,
  rateBp?: number | null,
): UnitPrices {
  const { num, den } = exactUnitPrice(hourly, type, configured);
  return {
    unitPrice: fenOfRatio(num, den),
    discountedUnitPrice:
      rateBp == null ? fenOfRatio(num, den) : fenOfRatio(num * BigInt(rateBp), den * BigInt(RATE_SCALE)),
  };
}

/** One GPU for one period before discount, whole fen (the market's package price). */
export const packageUnitPrice = (hourly: number, type: PackageType, configured?: PackagePrices | null) =>
  unitPrices(hourly, type, configured).unitPrice;

/** A price in units after a discount, rounded half up to whole fen (the market's hourly discount price). */
export const applyRate = (units: number, rateBp: number | null | undefined) =>
  rateBp == null ? fenOfRatio(BigInt(units)) : fenOfRatio(BigInt(units) * BigInt(rateBp), BigInt(RATE_SCALE));

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

export interface OrderPrice extends UnitPrices {
  /** Order amount before discount: unit × GPUs × periods (hourly: one hour). */
  originalAmount: number;
  discountAmount: number;
  voucherDeduction: number;
  /** What the balance pays now (hourly: what must be available to start). */
  payableAmount: number;
}

/** An order's figures, every one whole fen (the unit prices are rounded once, in unitPrices). */
export function computeOrderPrice(input: OrderPriceInput): OrderPrice {
  const periods = input.billingType === 'hourly' ? 1 : input.duration;
  const { unitPrice, discountedUnitPrice } = unitPrices(
    input.hourlyPrice,
    input.billingType,
    input.packagePrices,
    input.discountRateBp,
  );
  const originalAmount = unitPrice * input.gpuAmount * periods;
  const discounted = discountedUnitPrice * input.gpuAmount * periods;
  // SPEC.md §5: deduction = min(remaining, order amount); whole fen, so what is paid is too.
  const voucherDeduction = voucherDeduction_(input.voucherRemaining, discounted);
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
