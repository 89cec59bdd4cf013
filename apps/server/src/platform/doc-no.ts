import { randomBytes } from 'node:crypto';
import { formatTime } from '@gpu/shared/time';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The numbers a customer sees on a recharge order, an instance order or a bill: a prefix, the
 * Shanghai time yyyyMMddHHmmss and 12 random hex digits (28 characters). Dated so a customer and
 * support can place one at a glance; random so one number says nothing about the others.
 */
export const DOC_PREFIXES = { recharge: 'RC', order: 'OD', bill: 'BL' } as const;
export type DocPrefix = (typeof DOC_PREFIXES)[keyof typeof DOC_PREFIXES];

/** `prefix` + China time yyyyMMddHHmmss + 12 random hex; also valid as Alipay out_trade_no. */
export function newDocNo(prefix: DocPrefix, now: Date): string {
  const stamp = formatTime(now).replace(/\D/g, '');
  return `${prefix}${stamp}${randomBytes(6).toString('hex').toUpperCase()}`;
}

/**
 * The same number computed by the database, for rows it writes in bulk (metering's bill lines):
 * `at` a timestamptz expression; gen_random_uuid's first 12 hex digits are random.
 */
export const docNoSql = (prefix: DocPrefix, at: SQL): SQL =>
  sql`(${sql.raw(`'${prefix}'`)} || to_char((${at}) at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 12)))`;
