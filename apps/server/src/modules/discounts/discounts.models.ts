import { applyRate, type DiscountResult, RATE_SCALE, unitsToYuan } from '@gpu/shared';

export interface DiscountRule {
  id: number;
  tenantId: number | null;
  regionId: number | null;
  gpuModel: string | null;
  name: string;
  description: string;
  rateBp: number;
  startsAt: Date;
  endsAt: Date;
  enabled: boolean;
}

export interface DiscountTarget {
  tenantId: number;
  regionId: number;
  gpuModel: string;
}

/** Active means enabled and start ≤ now < end. */
export const isActive = (r: DiscountRule, now: Date) =>
  r.enabled && r.startsAt.getTime() <= now.getTime() && now.getTime() < r.endsAt.getTime();

const matches = (r: DiscountRule, t: DiscountTarget) =>
  (r.tenantId === null || r.tenantId === t.tenantId) &&
  (r.regionId === null || r.regionId === t.regionId) &&
  (r.gpuModel === null || r.gpuModel.toLowerCase() === t.gpuModel.toLowerCase());

/** The lowest active matching rate wins; ties go to the one ending first (its countdown shows). */
export function bestDiscount(rules: DiscountRule[], target: DiscountTarget, now: Date): DiscountRule | null {
  let best: DiscountRule | null = null;
  for (const r of rules) {
    if (!isActive(r, now) || !matches(r, target)) continue;
    if (!best || r.rateBp < best.rateBp || (r.rateBp === best.rateBp && r.endsAt < best.endsAt)) best = r;
  }
  return best;
}

/** SPEC.md §3 discount result for a price in units: both prices rounded once to whole fen (issue 10). */
export function toDiscountResult(priceUnits: number, rule: DiscountRule | null): DiscountResult {
  const original = unitsToYuan(applyRate(priceUnits, null));
  if (!rule) {
    return {
      originalPrice: original,
      discountPrice: original,
      discountRate: 1,
      hasDiscount: false,
      discountDescription: '',
      endTime: null,
    };
  }
  return {
    originalPrice: original,
    discountPrice: unitsToYuan(applyRate(priceUnits, rule.rateBp)),
    discountRate: rule.rateBp / RATE_SCALE,
    hasDiscount: true,
    discountDescription: rule.description || rule.name,
    endTime: rule.endsAt.toISOString(),
  };
}
