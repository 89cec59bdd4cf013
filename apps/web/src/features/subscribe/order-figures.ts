import { type BillingType, PACKAGE_FALLBACK } from '@gpu/shared/constants';
import type { MarketItem } from '@gpu/shared/market';
import { hoursLeft, unitsToYuan, yuanToUnits } from '@gpu/shared/money';
import type { CalculatePriceResponse, PackagePricing } from '@gpu/shared/pricing';
import { computeOrderPrice, type OrderPrice, type PackagePrices, RATE_SCALE } from '@gpu/shared/pricing';

/** The platform of this screen's package prices (the server prices local machines with it). */
export const PACKAGE_PLATFORM = 'local';

export interface OrderInput {
  item: Pick<MarketItem, 'originalPrice' | 'price' | 'hasDiscount' | 'discountRate'>;
  billingType: BillingType;
  duration: number;
  gpuAmount: number;
  /** The package prices configured for this GPU type and region, in units; null: SPEC fallback. */
  packagePrices: PackagePrices | null;
  /** False once the discount's end has passed on this screen. */
  discountLive: boolean;
  /** What the chosen voucher still holds, yuan; null without a voucher. */
  voucherRemaining: number | null;
}

export type Figures = { [K in keyof OrderPrice]: number };

/** The discount as the pricing function takes it: basis points of the price paid, or none. */
export const discountRateBp = (item: OrderInput['item'], live: boolean): number | null =>
  item.hasDiscount && live ? Math.round(item.discountRate * RATE_SCALE) : null;

/**
 * The bottom bar's figures in units: computeOrderPrice, the function the server charges with,
 * on the same inputs it uses (tenant hourly price, package config, active discount, voucher).
 */
export function orderUnits(input: OrderInput): OrderPrice {
  return computeOrderPrice({
    // `price` is the exact configured price (originalPrice is already rounded to fen for display).
    hourlyPrice: yuanToUnits(input.item.price || input.item.originalPrice),
    billingType: input.billingType,
    duration: input.billingType === 'hourly' ? 1 : input.duration,
    gpuAmount: input.gpuAmount,
    packagePrices: input.billingType === 'hourly' ? null : input.packagePrices,
    discountRateBp: discountRateBp(input.item, input.discountLive),
    voucherRemaining: input.voucherRemaining === null ? null : yuanToUnits(input.voucherRemaining),
  });
}

export const toYuan = (price: OrderPrice): Figures => ({
  unitPrice: unitsToYuan(price.unitPrice),
  discountedUnitPrice: unitsToYuan(price.discountedUnitPrice),
  originalAmount: unitsToYuan(price.originalAmount),
  discountAmount: unitsToYuan(price.discountAmount),
  voucherDeduction: unitsToYuan(price.voucherDeduction),
  payableAmount: unitsToYuan(price.payableAmount),
});

/** The same figures in yuan, as the bottom bar shows them. */
export const orderFigures = (input: OrderInput): Figures => toYuan(orderUnits(input));

/** The package prices of GET /v2/package-billing/pricing/by-gpu for this region, in units. */
export function packagePricesFor(
  configs: PackagePricing[] | undefined,
  regionId: number,
): PackagePrices | null {
  const c = configs?.find((p) => p.regionId === regionId && p.platform === PACKAGE_PLATFORM);
  return c
    ? {
        daily: yuanToUnits(c.dailyPrice),
        weekly: yuanToUnits(c.weeklyPrice),
        monthly: yuanToUnits(c.monthlyPrice),
      }
    : null;
}

const FIGURE_KEYS: (keyof Figures)[] = [
  'unitPrice',
  'discountedUnitPrice',
  'originalAmount',
  'discountAmount',
  'voucherDeduction',
  'payableAmount',
];

/** Whether the server's quote (POST /v2/package-billing/calculate-price) equals ours to the unit. */
export function quoteMatches(local: Figures, quote: CalculatePriceResponse): boolean {
  return FIGURE_KEYS.every((key) => yuanToUnits(local[key]) === yuanToUnits(quote[key]));
}

export const quoteFigures = (quote: CalculatePriceResponse): Figures => ({
  unitPrice: quote.unitPrice,
  discountedUnitPrice: quote.discountedUnitPrice,
  originalAmount: quote.originalAmount,
  discountAmount: quote.discountAmount,
  voucherDeduction: quote.voucherDeduction,
  payableAmount: quote.payableAmount,
});

/** Hours an order runs for: one for pay-as-you-go (its figures are one hour), else the package's. */
export const orderHours = (billingType: BillingType, duration: number): number =>
  billingType === 'hourly' ? 1 : PACKAGE_FALLBACK[billingType].hours * duration;

/**
 * The order's spend rate, yuan an hour: pay-as-you-go, the hour after discount (what metering
 * charges each hour; a voucher only lowers the first); a package, what it takes from the balance
 * spread over its hours.
 */
export function spendRate(figures: Figures, billingType: BillingType, duration: number): number {
  if (billingType === 'hourly') return Math.max(0, figures.originalAmount - figures.discountAmount);
  return figures.payableAmount / orderHours(billingType, duration);
}

/** How long `balance` lasts at the order's spend rate (the shared runway rule), or null. */
export const orderRunway = (balance: number | null, rate: number): number | null =>
  balance === null ? null : hoursLeft(balance, rate);
