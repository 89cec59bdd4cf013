import { z } from 'zod';

/**
 * Base schemas for what arrives from outside: every string, id and date of a request goes
 * through one of these, so the rules (no control characters, decimal ids, real dates) live once.
 */

/** C0 controls and DEL, except tab and line breaks (multi-line text such as PEM keys needs them). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** In one-line values (paths, queries, names) line breaks are control characters too. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
export const LINE_CONTROL_CHARS = /[\u0000-\u001F\u007F]/;
export const CONTROL_CHARS_MESSAGE = '不能包含控制字符';

/** The base string: no control characters. Chain `.trim()`, `.max()`… as usual. */
export const textSchema = (message?: string) =>
  z.string(message ? { message } : undefined).refine((v) => !CONTROL_CHARS.test(v), CONTROL_CHARS_MESSAGE);

/** Largest id of a PostgreSQL `integer`/`serial` column. */
export const ID_MAX = 2_147_483_647;
const DECIMAL = /^\d{1,10}$/;

/**
 * A positive integer id: a JSON number, or (query, path) a string of decimal digits only;
 * `0x10`, `14e0`, ` 1`, `+1` are refused rather than read as some other row.
 */
export const idSchema = (message = '编号无效') =>
  z.preprocess(
    (v) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v),
    z.number({ message }).int(message).min(1, message).max(ID_MAX, message),
  );

export const DATE_MESSAGE = '日期格式应为 YYYY-MM-DD';
/** A real calendar day `YYYY-MM-DD` (2026-02-30 and 2026-13-45 are refused). */
export const dateSchema = z.iso.date({ message: DATE_MESSAGE });

/** A filter bound: a calendar day, or an ISO 8601 time with offset (both must exist). */
export const dateOrTimeSchema = z
  .string({ message: DATE_MESSAGE })
  .trim()
  .refine(
    (v) => dateSchema.safeParse(v).success || z.iso.datetime({ offset: true }).safeParse(v).success,
    '日期格式应为 YYYY-MM-DD 或带时区的 ISO 时间',
  );
