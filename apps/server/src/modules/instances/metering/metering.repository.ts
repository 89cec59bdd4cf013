import type { InstanceStatus } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { chargeStatement } from './charge.repository.ts';
import { idArray, postedBySql, resultRows } from './posted-by.repository.ts';

export interface MeteringOutcome {
  /** Charges that had something due (posted now or found posted by an earlier run). */
  due: number;
  /** Ledger rows inserted now, and the total they charged (positive units). */
  posted: number;
  charged: number;
  /** Due charges whose account row is missing (a bug: the caller throws). */
  withoutAccount: number;
  /** Keys already posted for a different movement (a bug: the caller throws). */
  keyMismatches: number;
  /**
   * Ledger rows of this run not inserted (the caller throws). Always 0 since the insert has no
   * ON CONFLICT (issue 15): a key another transaction posted meanwhile (a bug: our instances are
   * locked) fails the statement on the unique index instead, rolling back the same way.
   */
  raced: number;
  /** The owners' available balances after the charge (metering's arrears check). */
  available: Map<number, number>;
}

/**
 * Set-based metering (issue 15): a handful of statements per batch whatever its size. The
 * ledger rules are those of `postLedgerEntries` (ledger.ts); the former one-at-a-time JS path
 * is kept as the reference in metering.reference.test-helpers.ts, and the property test checks
 * both give the same rows.
 */
export function createMeteringRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * The next pay-as-you-go instances (ascending id, after `afterId`) with at least a whole fen
     * due at `now`, row-locked; rows another transaction holds are skipped (another replica is
     * charging them, or a power off is). `ids` instead locks just those rows when still due.
     */
    async lockDue(
      now: Date,
      q: { afterId: number; limit: number; lane?: { index: number; of: number } } | { ids: number[] },
    ) {
      // A lane (runMetering) takes the owners whose id falls to it: lanes never share an account.
      const lane =
        'lane' in q && q.lane && q.lane.of > 1 ? sql` and i.user_id % ${q.lane.of} = ${q.lane.index}` : sql``;
      const which = 'ids' in q ? sql`i.id = any(${idArray(q.ids)})` : sql`i.id > ${q.afterId}${lane}`;
      // One row of three arrays rather than a row per instance: a batch is thousands of rows,
      // and reading them one object each costs PGlite (in this process) more than the lock.
      const rows = await db.execute(sql`
        select coalesce(array_agg(l.id order by l.id), '{}') as ids,
               coalesce(array_agg(l.user_id order by l.id), '{}') as user_ids,
               coalesce(array_agg(l.status order by l.id), '{}') as statuses
        from (
          select i.id, i.user_id, i.status from instances i
          where ${which} and i.billing_type = 'hourly' and i.status in ('RUNNING', 'STOPPING')
            and i.running_since is not null and ${postedBySql('i', now)} > i.charged
          order by i.id
          ${'limit' in q ? sql`limit ${q.limit}` : sql``}
          for update skip locked
        ) l`);
      const [r] = resultRows<{ ids: (string | number)[]; user_ids: number[]; statuses: string[] }>(rows);
      return (r?.ids ?? []).map((id, k) => ({
        id: Number(id),
        userId: Number(r?.user_ids[k]),
        status: r?.statuses[k] as InstanceStatus,
      }));
    },
    /** Locks these owners' accounts in ascending user id (ledger.ts: after the instance rows). */
    async lockAccounts(userIds: number[]) {
      if (userIds.length === 0) return;
      await db.execute(sql`
        select a.user_id from accounts a
        where a.user_id = any(${idArray(userIds)})
        order by a.user_id
        for update`);
    },

    /**
     * Charges the given (locked) pay-as-you-go instances what they posted by `now` and were not
     * charged yet: ledger rows, account balances, `charged`, hourly bill lines, in one statement
     * of named steps. The caller holds the instance rows and then the accounts
     * (`lockAccounts`), and throws — rolling everything back — unless the outcome is clean.
     */
    async charge(ids: number[], now: Date): Promise<MeteringOutcome> {
      const empty = {
        due: 0,
        posted: 0,
        charged: 0,
        withoutAccount: 0,
        keyMismatches: 0,
        raced: 0,
        available: new Map<number, number>(),
      };
      if (ids.length === 0) return empty;
      const query = chargeStatement(ids, now);
      // (`charged` and the `line_` steps run whether or not the summary reads them: data-modifying
      // steps always run to completion.)
      const rows = await db.execute<{
        due: string;
        posted: string;
        charged: string;
        without_account: string;
        key_mismatches: string;
        raced: string;
        available: [number, number][] | string;
      }>(query);
      const [first] = resultRows<Record<string, unknown>>(rows);
      if (!first) return empty;
      return {
        due: Number(first.due),
        posted: Number(first.posted),
        charged: Number(first.charged),
        withoutAccount: Number(first.without_account),
        keyMismatches: Number(first.key_mismatches),
        raced: Number(first.raced),
        available: new Map(
          (typeof first.available === 'string' ? JSON.parse(first.available) : first.available) as [
            number,
            number,
          ][],
        ),
      };
    },
  };
}
