import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { countGpuStates, sumGpuStates } from '../hosts/index.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { rechargeOrders } from '../payments/payments.tables.ts';

/**
 * Business figures for /metrics, read from the database on each scrape: every replica reports
 * the same totals (they are facts of the shared database, not of one process).
 */
export function createMetricsRepository({ db }: { db: DbOrTx }) {
  return {
    /** Per model, by hosts' one definition of a GPU's state (`countGpuStates`). */
    gpusByModel: async () =>
      [...sumGpuStates(await countGpuStates(db), (g) => g.model)].map(([model, c]) => ({ model, ...c })),
    ledgerPostingsByKind: () =>
      db
        .select({ kind: ledgerEntries.kind, count: sql<number>`count(*)::int` })
        .from(ledgerEntries)
        .groupBy(ledgerEntries.kind),
    paymentsByOutcome: () =>
      db
        .select({
          provider: rechargeOrders.provider,
          status: rechargeOrders.status,
          count: sql<number>`count(*)::int`,
        })
        .from(rechargeOrders)
        .groupBy(rechargeOrders.provider, rechargeOrders.status),
  };
}
