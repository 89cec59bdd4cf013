import { BILLING_TYPE_SHORT_NAMES } from '@gpu/shared/labels';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import type { Lang } from './messages.ts';

/** Columns a character takes in a terminal: CJK and full-width forms take two. */
function charWidth(cp: number) {
  if (cp < 0x1100) return 1;
  const wide =
    cp <= 0x115f ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    cp >= 0x20000;
  return wide ? 2 : 1;
}
export const displayWidth = (s: string) => [...s].reduce((n, ch) => n + charWidth(ch.codePointAt(0) ?? 0), 0);
const pad = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - displayWidth(s)));

export interface Column<T> {
  zh: string;
  en: string;
  value: (row: T) => string | number | null | undefined;
  /** Numbers read better right-aligned. */
  right?: boolean;
}

/** A plain table for people: a header line, then one line per row, columns two spaces apart. */
export function table<T>(rows: T[], columns: Column<T>[], lang: Lang): string {
  const cells = rows.map((r) => columns.map((c) => String(c.value(r) ?? '-')));
  const head = columns.map((c) => c[lang]);
  const widths = head.map((h, i) =>
    Math.max(displayWidth(h), ...cells.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        return columns[i]?.right ? ' '.repeat(Math.max(0, w - displayWidth(cell))) + cell : pad(cell, w);
      })
      .join('  ')
      .trimEnd();
  return [line(head), ...cells.map(line)].join('\n');
}

/** Machine output: one JSON document on stdout. */
export function printJson(data: unknown): void {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
}
export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}
/** Notes for people go to stderr, so stdout stays data. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Yuan, two decimals. */
/** Money as every screen shows it ("¥1,000.00", "-¥3.20"): the shared formatter. */
export const yuan = formatMoney;
/** "2026-11-26 18:48": the platform's time (Asia/Shanghai), as the console shows it, wherever the CLI runs. */
export function shortTime(iso: string | null | undefined) {
  return formatTime(iso, 'YYYY-MM-DD HH:mm');
}

/** 按量 / 包日 / 包周 / 包月 in Chinese, the API's value (hourly…) in English. */
export const billingName = (type: string, lang: Lang) =>
  lang === 'zh' ? (BILLING_TYPE_SHORT_NAMES[type as keyof typeof BILLING_TYPE_SHORT_NAMES] ?? type) : type;
