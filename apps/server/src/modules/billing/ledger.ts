import type { DbOrTx, Tx } from '../../app/db/client.ts';
import { billingErrors } from './billing.errors.ts';
import { applyMovement, assertValidMovement, type Movement } from './billing.models.ts';
import { createBillingRepository, type LedgerEntry } from './billing.repository.ts';

export type { LedgerEntry } from './billing.repository.ts';
export type { LedgerKind } from './billing.tables.ts';

export interface LedgerPosting extends Movement {
  userId: number;
  /**
   * Unique per real-world event, e.g. `recharge:<orderNo>`, `charge:<instanceId>:<minute>`,
   * `refund:<instanceId>`, `adjustment:<requestId>`. A repeat changes nothing.
   */
  idempotencyKey: string;
  /** What the change is about, e.g. `{ type: 'recharge_order', id: 42 }`. */
  reference?: { type: string; id: string | number };
  memo?: string;
  /** Time of the entry; the database's now() when left out. */
  at?: Date;
}

export interface PostingResult {
  entry: LedgerEntry;
  /** False when the idempotency key was already posted: nothing changed this time. */
  created: boolean;
}

/**
 * The one way any balance changes (DESIGN §5). Runs inside the caller's transaction, so the
 * caller's own writes (order flipped to SUCCESS, instance charged so far, voucher used…) and
 * the money commit or roll back together.
 *
 * - Locks the account row (`select … for update`): postings of one user run one after another.
 *   Lock the account last in a transaction that also locks other rows.
 * - A key already posted returns that entry and changes nothing (also under concurrency: the
 *   insert is `on conflict do nothing`, then checked).
 * - A debit that would take `available` below zero throws `billing.insufficient_balance`
 *   (422) unless `allowNegative` (pay-as-you-go metering only); `frozen` never goes below zero.
 *   A throw rolls back the caller's whole transaction.
 */
export async function postLedgerEntry(tx: Tx, posting: LedgerPosting): Promise<PostingResult> {
  assertValidMovement(posting);
  const repo = createBillingRepository({ db: tx });
  const account = await repo.lockAccount(posting.userId);
  if (!account) throw billingErrors.accountMissing();

  const existing = await repo.entryByKey(posting.idempotencyKey);
  if (existing) return { entry: sameOrThrow(existing, posting), created: false };

  const outcome = applyMovement(account, posting);
  if (!outcome.ok) {
    throw outcome.reason === 'insufficient_balance'
      ? billingErrors.insufficientBalance()
      : billingErrors.insufficientFrozen();
  }
  const at = posting.at ?? new Date();
  const entry = await repo.insertEntry({
    userId: posting.userId,
    tenantId: account.tenantId,
    kind: posting.kind,
    amount: posting.amount,
    frozenAmount: posting.frozenAmount ?? 0,
    availableAfter: outcome.balances.available,
    frozenAfter: outcome.balances.frozen,
    idempotencyKey: posting.idempotencyKey,
    referenceType: posting.reference?.type ?? null,
    referenceId: posting.reference ? String(posting.reference.id) : null,
    memo: posting.memo ?? null,
    ...(posting.at ? { createdAt: posting.at } : {}),
  });
  if (!entry) {
    // Another transaction (of another account: ours is locked) took the key meanwhile.
    const raced = await repo.entryByKey(posting.idempotencyKey);
    if (!raced) throw new Error(`ledger key ${posting.idempotencyKey} conflicted but is not there`);
    return { entry: sameOrThrow(raced, posting), created: false };
  }
  await repo.setBalances(posting.userId, outcome.balances.available, outcome.balances.frozen, at);
  return { entry, created: true };
}

/** A key reused for a different change is a bug in the caller; refuse loudly rather than drop money. */
function sameOrThrow(entry: LedgerEntry, p: LedgerPosting): LedgerEntry {
  if (
    entry.userId !== p.userId ||
    entry.kind !== p.kind ||
    entry.amount !== p.amount ||
    entry.frozenAmount !== (p.frozenAmount ?? 0)
  ) {
    throw new Error(`ledger key ${p.idempotencyKey} was already used for a different posting`);
  }
  return entry;
}

export interface Reconciliation {
  userId: number;
  available: number;
  frozen: number;
  ledgerAvailable: number;
  ledgerFrozen: number;
  entries: number;
  /** Balances equal the ledger sums and the latest entry's balances-after. */
  balanced: boolean;
}

/** Compares one account with its ledger (tests, health checks). */
export async function reconcileAccount(db: DbOrTx, userId: number): Promise<Reconciliation> {
  const repo = createBillingRepository({ db });
  const account = await repo.account(userId);
  if (!account) throw billingErrors.accountMissing();
  const sums = await repo.ledgerSums(userId);
  const lastOk = sums.last
    ? sums.last.availableAfter === account.available && sums.last.frozenAfter === account.frozen
    : account.available === 0 && account.frozen === 0;
  return {
    userId,
    available: account.available,
    frozen: account.frozen,
    ledgerAvailable: sums.available,
    ledgerFrozen: sums.frozen,
    entries: sums.count,
    balanced: lastOk && sums.available === account.available && sums.frozen === account.frozen,
  };
}

/** Every account whose balance differs from its ledger; empty when all is well. */
export const findUnbalancedAccounts = (db: DbOrTx) => createBillingRepository({ db }).unbalancedAccounts();
