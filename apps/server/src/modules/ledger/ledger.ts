/**
 * THE LOCK ORDER (every transaction, every module; PostgreSQL deadlocks otherwise):
 *
 *   1. instance rows (`instances … for update`; several: ascending id, or SKIP LOCKED)
 *   2. the host row, before anything that touches the host (allocation, release, the port
 *      pool, and the instances insert, whose foreign key share-locks the host; only one host
 *      per transaction): SHARED (`shareHost`) by allocations and releases, which may run at
 *      once on one host, each then taking its own GPU and port rows `FOR UPDATE SKIP LOCKED`
 *      (never waiting on them); FOR UPDATE (`lockHost`) by changes to the host itself
 *      (settings, port range, GPU inventory, status, deletion), which wait for those
 *   3. account rows (`postLedgerEntry`/`postLedgerEntries`: ascending user id), always last
 *
 * Orders, vouchers and other rows of one owner come before its account as well. A
 * transaction may skip levels but never go back up: e.g. power off charges (3) only after it
 * gave the GPUs back (2); create share-locks the host (2) before inserting the instance, which
 * nobody else can see yet, and charges (3) last. Driver calls never run inside any of these.
 */
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { billingErrors } from './ledger.errors.ts';
import { applyMovement, assertValidMovement, type Movement } from './ledger.models.ts';
import { createLedgerRepository, type LedgerEntry, type NewLedgerEntry } from './ledger.repository.ts';

export type { LedgerEntry } from './ledger.repository.ts';
export type { LedgerKind } from './ledger.tables.ts';

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
 *   The account comes last in the lock order (top of this file).
 * - A key already posted returns that entry and changes nothing (read after the account lock,
 *   so a concurrent posting of the same key waits, then finds it).
 * - A debit that would take `available` below zero throws `billing.insufficient_balance`
 *   (422) unless `allowNegative` (pay-as-you-go metering only); `frozen` never goes below zero.
 *   A throw rolls back the caller's whole transaction.
 */
export async function postLedgerEntry(tx: Tx, posting: LedgerPosting): Promise<PostingResult> {
  const [result] = await postLedgerEntries(tx, [posting]);
  if (!result) throw new Error('ledger posting produced no result');
  return result;
}

/**
 * Several postings under the rules of `postLedgerEntry`, in a handful of statements whatever
 * their number (metering charges hundreds of instances per transaction): the accounts are
 * locked in user-id order, postings of one account apply in the order given, and any refusal
 * rolls back the caller's whole transaction. Results are in the order of `postings`.
 */
export async function postLedgerEntries(tx: Tx, postings: LedgerPosting[]): Promise<PostingResult[]> {
  if (postings.length === 0) return [];
  for (const p of postings) assertValidMovement(p);
  const repo = createLedgerRepository({ db: tx });
  const userIds = [...new Set(postings.map((p) => p.userId))].sort((x, y) => x - y);
  const locked = new Map((await repo.lockAccounts(userIds)).map((a) => [a.userId, a]));
  const posted = new Map(
    (await repo.entriesByKeys(postings.map((p) => p.idempotencyKey))).map((e) => [e.idempotencyKey, e]),
  );

  const results: (PostingResult | undefined)[] = postings.map((p) => {
    const prior = posted.get(p.idempotencyKey);
    return prior ? { entry: sameOrThrow(prior, p), created: false } : undefined;
  });
  const balances = new Map<number, { tenantId: number; available: number; frozen: number }>();
  const rows: NewLedgerEntry[] = [];
  const keys = new Set<string>();
  postings.forEach((p, i) => {
    if (results[i]) return;
    const account = balances.get(p.userId) ?? locked.get(p.userId);
    if (!account) throw billingErrors.accountMissing();
    if (keys.has(p.idempotencyKey)) throw new Error(`ledger key ${p.idempotencyKey} twice in one call`);
    keys.add(p.idempotencyKey);
    const outcome = applyMovement(account, p);
    if (!outcome.ok) {
      throw outcome.reason === 'insufficient_balance'
        ? billingErrors.insufficientBalance()
        : billingErrors.insufficientFrozen();
    }
    balances.set(p.userId, { tenantId: account.tenantId, ...outcome.balances });
    rows.push({
      userId: p.userId,
      tenantId: account.tenantId,
      kind: p.kind,
      amount: p.amount,
      frozenAmount: p.frozenAmount ?? 0,
      availableAfter: outcome.balances.available,
      frozenAfter: outcome.balances.frozen,
      idempotencyKey: p.idempotencyKey,
      referenceType: p.reference?.type ?? null,
      referenceId: p.reference ? String(p.reference.id) : null,
      memo: p.memo ?? null,
      ...(p.at ? { createdAt: p.at } : {}),
    });
  });
  if (rows.length === 0) return results as PostingResult[];

  const at = postings.reduce<Date | undefined>((last, p) => p.at ?? last, undefined) ?? new Date();
  // Rows and balances in one statement. Keys were read after the accounts were locked, so no
  // posting of these accounts can have taken one since; a key another account's posting took
  // meanwhile (a caller bug) fails the insert and rolls everything back.
  const inserted = new Map(
    (
      await repo.insertEntriesSettingBalances(
        rows,
        [...balances].map(([userId, b]) => ({ userId, available: b.available, frozen: b.frozen })),
        at,
      )
    ).map((e) => [e.idempotencyKey, e]),
  );
  return postings.map((p, i) => {
    const done = results[i];
    if (done) return done;
    const entry = inserted.get(p.idempotencyKey);
    if (!entry) throw new Error(`ledger key ${p.idempotencyKey} was not inserted`);
    return { entry, created: true };
  });
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
  const repo = createLedgerRepository({ db });
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
export const findUnbalancedAccounts = (db: DbOrTx) => createLedgerRepository({ db }).unbalancedAccounts();
