import { type BillingType, DEFAULT_DATA_DISK_GB, DEFAULT_SYSTEM_DISK_GB } from '@gpu/shared/constants';
import { isOverseasSku, type MarketItem } from '@gpu/shared/market';
import { displayPrices } from '@gpu/shared/price-display';
import { PATHS } from '../../lib/routing/paths';

/**
 * SPEC.md §3: a missing disk size shows the defaults (30 GB system, 50 GB data). An overseas
 * offer has its own disk (§9: 10 GB) and no data disk: its figures are shown as they are.
 */
export const systemDiskGb = (item: MarketItem) =>
  item.systemDiskGb > 0 || isOverseasSku(item.skuGpuId) ? item.systemDiskGb : DEFAULT_SYSTEM_DISK_GB;
export const dataDiskGb = (item: MarketItem) =>
  item.dataDiskGb > 0 || isOverseasSku(item.skuGpuId) ? item.dataDiskGb : DEFAULT_DATA_DISK_GB;

export interface CardPrices {
  /** Per hour and per minute of the price paid (SPEC.md §9 via displayPrices). */
  perHour: number;
  perMinute: number;
  /** Per hour before the discount, when one applies. */
  originalPerHour: number | null;
  /** One GPU for one period in a package mode, after and before the discount. */
  packagePrice: number | null;
  originalPackagePrice: number | null;
}

/**
 * What a card shows. `discountLive` is false once the discount's end has passed on this
 * screen (the list reloads, SPEC.md §4; until then the card already shows the original price).
 */
export function cardPrices(item: MarketItem, billingType: BillingType, discountLive: boolean): CardPrices {
  const discounted = item.hasDiscount && discountLive;
  const paid = displayPrices(discounted ? item.discountPrice : item.originalPrice);
  const original = displayPrices(item.originalPrice);
  const pkg = billingType === 'hourly' ? null : item.packagePrice;
  const pkgPaid = pkg === null ? null : discounted ? (item.packageDiscountPrice ?? pkg) : pkg;
  return {
    perHour: paid.perHour,
    perMinute: paid.perMinute,
    originalPerHour: discounted ? original.perHour : null,
    packagePrice: pkgPaid,
    originalPackagePrice: pkg !== null && pkgPaid !== null && pkgPaid < pkg ? pkg : null,
  };
}

/** SPEC.md §2: the create-instance screen for this item and billing mode. */
export const subscribePath = (item: MarketItem, billingType: BillingType) =>
  `${PATHS.subscribe}?${new URLSearchParams({ skuGpuId: item.skuGpuId, billingType })}`;
