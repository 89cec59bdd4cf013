/**
 * Money is an integer count of 0.0001 yuan (DESIGN §4); yuan appear only at the HTTP edge.
 * Safe integers hold up to about 900 billion yuan, far beyond any balance here.
 */
export const MONEY_SCALE = 10_000;

/** Yuan (a JSON number) to units; rounds half away from zero at the fourth decimal. */
export function yuanToUnits(yuan: number): number {
  if (!Number.isFinite(yuan)) throw new RangeError(`not a finite amount: ${yuan}`);
  // Go through the decimal string so 1.0001 does not become 10000.999… units.
  const sign = yuan < 0 ? -1 : 1;
  const [whole, frac = ''] = Math.abs(yuan).toFixed(6).split('.');
  const units = Number(whole) * MONEY_SCALE + Number(frac.slice(0, 4));
  const roundUp = Number(frac.slice(4, 5)) >= 5 ? 1 : 0;
  return sign * (units + roundUp);
}

/** Units to yuan as a JSON number (exact to 4 decimals). */
export function unitsToYuan(units: number | bigint): number {
  const n = typeof units === 'bigint' ? Number(units) : units;
  return n / MONEY_SCALE;
}

/** Two-decimal display of yuan, e.g. `formatYuan(1.5)` → "1.50". */
export function formatYuan(yuan: number): string {
  const units = yuanToUnits(yuan);
  const cents = Math.sign(units) * Math.round(Math.abs(units) / 100);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
