import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';

/**
 * Accounts whose kept `spent` is not Σ of their bill lines' amounts (issue 33), of `userIds` or
 * of every account; empty when all is well. A test invariant beside Σ ledger = balance.
 */
export async function spendMismatches(db: DbOrTx, userIds?: number[]) {
  const only = userIds ? sql`where a.user_id = any(${`{${userIds.join(',')}}`}::int[])` : sql``;
  const res = (await db.execute(sql`
    select a.user_id, a.spent::text as spent, coalesce(b.total, 0)::text as lines
    from accounts a
    left join (select user_id, sum(amount) as total from billing_records group by user_id) b
      on b.user_id = a.user_id
    ${only}`)) as unknown as { rows: { user_id: number; spent: string; lines: string }[] };
  return res.rows.filter((r) => r.spent !== r.lines);
}
