/**
 * Money is an integer count of 0.0001 yuan (DESIGN §4); yuan appear only at the HTTP edge.
 * Safe integers hold up to about 900 billion yuan, far beyond any balance here.
 * Every amount a customer is charged is whole fen (FEN units); only pay-as-you-go accrual is
 * finer, and it posts whole fen (issue 10).
 */
export const MONEY_SCALE = 10_000;
/** Units in one fen (0.01 yuan): the smallest amount ever charged or shown. */
export const FEN = 100;

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

/**
 * The exact amount `num / den` units rounded half up to whole fen, in units. Integer maths
 * (bigint), so a price × factor × rate is rounded once, from its exact value, without float error.
 * For non-negative amounts (prices).
 */
export function fenOfRatio(num: bigint, den: bigint = 1n): number {
  const d = den * BigInt(FEN);
  return Number((2n * num + d) / (2n * d)) * FEN;
}

/** Units rounded half up to whole fen (half away from zero below zero). */
export const roundToFen = (units: number): number =>
  Math.sign(units) * fenOfRatio(BigInt(Math.abs(Math.trunc(units))));

/** Units rounded down to whole fen: what metering may post of an exact accrual. */
export const floorToFen = (units: number): number => Math.floor(units / FEN) * FEN;

export interface FormatYuanOptions {
  /** Thousands separators, e.g. "29,800.00". */
  group?: boolean;
  /** A positive amount under half a fen shows "<0.01" rather than "0.00" (a per-minute price). */
  tiny?: boolean;
}

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A count with thousands separators, as amounts have them: "1,400" (hosts, GPUs, ports). */
export const formatCount = (n: number): string =>
  (n < 0 ? '-' : '') + grouped(String(Math.trunc(Math.abs(n))));

/**
 * THE money display (web screens, server exports and messages): two decimals, half away from
 * zero, e.g. `formatYuan(1.5)` → "1.50", `formatYuan(-3.2)` → "-3.20".
 */
export function formatYuan(yuan: number, opts: FormatYuanOptions = {}): string {
  return formatUnits(yuanToUnits(yuan), opts);
}

/** formatYuan of an amount already in units (the server's exports: no trip through yuan). */
export function formatUnits(units: number, opts: FormatYuanOptions = {}): string {
  if (opts.tiny && units > 0 && units < FEN / 2) return '<0.01';
  const fen = roundToFen(units) / FEN;
  const abs = Math.abs(fen);
  const whole = String(Math.floor(abs / 100));
  const integer = opts.group ? grouped(whole) : whole;
  return `${fen < 0 ? '-' : ''}${integer}.${String(abs % 100).padStart(2, '0')}`;
}

/** formatYuan with the currency sign: "¥1.50", "-¥12.00". */
export function formatCurrency(yuan: number, opts: FormatYuanOptions = {}): string {
  const text = formatYuan(yuan, opts);
  return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
}

/**
 * THE customer-facing money text: "¥", thousands separators, two decimals ("¥1,000.00",
 * "-¥3.20"). Screens that show an amount as text use this one function.
 */
export const formatMoney = (yuan: number): string => formatCurrency(yuan, { group: true });

/** A chart axis's money, short: "¥1.2万" from ten thousand up, else "¥800" (tooltips are exact). */
export function formatMoneyAxis(yuan: number): string {
  const sign = yuan < 0 ? '-' : '';
  const abs = Math.abs(yuan);
  if (abs >= 10_000) return `${sign}¥${Math.round(abs / 1_000) / 10}万`;
  return `${sign}¥${formatCount(Math.round(abs))}`;
}

/**
 * How long `available` yuan lasts at `ratePerHour` yuan an hour, in hours rounded down to one
 * decimal (never below 0); null when nothing is spent. The one rule for every runway shown
 * (console home, order bar, back-office balance warnings).
 */
export function hoursLeft(available: number, ratePerHour: number): number | null {
  if (!(ratePerHour > 0)) return null;
  return available <= 0 ? 0 : Math.floor((available / ratePerHour) * 10) / 10;
}
