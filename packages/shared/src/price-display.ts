/**
 * How prices show (SPEC.md §9), without zod: the web imports this module (or pricing.ts, which
 * re-exports it) for display; the charging maths stays in pricing.ts.
 */

/** SPEC.md §9: hourly prices are shown per minute too; a price under 1 yuan is already per minute. */
export function displayPrices(priceYuan: number): { perMinute: number; perHour: number } {
  return priceYuan < 1
    ? { perMinute: priceYuan, perHour: priceYuan * 60 }
    : { perMinute: priceYuan / 60, perHour: priceYuan };
}

/** SPEC.md §9: 8折 display from a rate of 0.8; subscribe shows (1 − rate) × 100 % off. */
export const discountZhe = (rate: number) => `${Number((rate * 10).toFixed(1))}折`;
export const discountPercentOff = (rate: number) => `${Number(((1 - rate) * 100).toFixed(1))}%`;
