import { and, asc, gt, gte, lte, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userNotices } from '../notices/notices.tables.ts';
import { vouchers } from './vouchers.tables.ts';

/** Vouchers whose notice (issue 31) has not been written yet: the key names the voucher. */
const untold = (key: ReturnType<typeof sql>) =>
  notExists(
    sql`(select 1 from ${userNotices} where ${userNotices.userId} = ${vouchers.userId} and ${userNotices.dedupeKey} = ${key})`,
  );

const fields = {
  id: vouchers.id,
  userId: vouchers.userId,
  name: vouchers.name,
  amount: vouchers.amount,
  remaining: vouchers.remaining,
  expiresAt: vouchers.expiresAt,
};

export function createVoucherNoticesRepository({ db }: { db: DbOrTx }) {
  return {
    /** Issued since `since` and not yet told (`voucher_received:<id>`). */
    receivedUntold: (since: Date, limit: number) =>
      db
        .select(fields)
        .from(vouchers)
        .where(and(gte(vouchers.createdAt, since), untold(sql`'voucher_received:' || ${vouchers.id}`)))
        .orderBy(asc(vouchers.id))
        .limit(limit),
    /** Still holding money, ending between `now` and `until`, not yet told for this end. */
    expiringUntold: (now: Date, until: Date, limit: number) =>
      db
        .select(fields)
        .from(vouchers)
        .where(
          and(
            gt(vouchers.expiresAt, now),
            lte(vouchers.expiresAt, until),
            gt(vouchers.remaining, 0),
            untold(
              sql`'voucher_expiring:' || ${vouchers.id} || ':' || (extract(epoch from ${vouchers.expiresAt}) * 1000)::bigint`,
            ),
          ),
        )
        .orderBy(asc(vouchers.id))
        .limit(limit),
  };
}
