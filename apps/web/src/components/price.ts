/**
 * Yuan for display: at least `minDecimals`, up to 4 (money is exact to 0.0001 yuan, DESIGN §4)
 * with trailing zeros beyond the minimum dropped: 1.5 → "1.50", 1.584 → "1.584",
 * 0.026333… → "0.0263". `group` adds thousands separators (29800 → "29,800").
 */
export function formatPrice(yuan: number, minDecimals = 2, group = false): string {
  const fixed = (Math.round(yuan * 10_000) / 10_000).toFixed(4);
  const [whole, frac] = fixed.split('.');
  let digits = frac ?? '';
  while (digits.length > minDecimals && digits.endsWith('0')) digits = digits.slice(0, -1);
  const integer = group ? (whole ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',') : (whole ?? fixed);
  return digits ? `${integer}.${digits}` : integer;
}
