import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';

/** The admin dashboard's key figures in one round trip (units for money). */
export function createDashboardRepository({ db }: { db: DbOrTx }) {
  return {
    async figures(dayStart: Date, now: Date) {
      const rows = await db.execute<{
        users: number;
        running: number;
        revenue: string;
        balances: string;
        voucher_value: string;
      }>(sql`select
        (select count(*)::int from users) as users,
        (select count(*)::int from instances where status = 'RUNNING') as running,
        (select coalesce(-sum(amount), 0)::text from ledger_entries
           where kind in ('charge', 'refund') and created_at >= ${dayStart}) as revenue,
        (select coalesce(sum(available + frozen), 0)::text from accounts) as balances,
        (select coalesce(sum(remaining), 0)::text from vouchers where remaining > 0 and expires_at > ${now}) as voucher_value`);
      const r = (rows as unknown as { rows?: unknown[] }).rows?.[0] ?? (rows as unknown as unknown[])[0];
      const row = r as {
        users: number;
        running: number;
        revenue: string;
        balances: string;
        voucher_value: string;
      };
      return {
        users: Number(row.users),
        running: Number(row.running),
        revenue: Number(row.revenue),
        balances: Number(row.balances),
        voucherValue: Number(row.voucher_value),
      };
    },
  };
}
