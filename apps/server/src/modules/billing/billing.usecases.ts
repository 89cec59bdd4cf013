import { randomUUID } from 'node:crypto';
import {
  type Balance,
  type BalanceAdjustmentRequest,
  type BalanceCheck,
  unitsToYuan,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import type { AuthAdmin } from '../auth/index.ts';
import { createAuthRepository } from '../auth/index.ts';
import { billingErrors, createLedgerRepository, postLedgerEntry } from '../ledger/index.ts';

interface BillingDeps {
  db: Db;
  now: Now;
}

export async function getBalance({ db }: { db: Db }, userId: number): Promise<Balance> {
  const a = await createLedgerRepository({ db }).account(userId);
  const available = a?.available ?? 0;
  const frozen = a?.frozen ?? 0;
  return {
    available: unitsToYuan(available),
    frozen: unitsToYuan(frozen),
    total: unitsToYuan(available + frozen),
  };
}

/** Whether the available balance covers `amountYuan` (SPEC.md §7 `GET /user/balance/check`). */
export async function checkBalance(
  { db }: { db: Db },
  userId: number,
  amountYuan: number,
): Promise<BalanceCheck> {
  const a = await createLedgerRepository({ db }).account(userId);
  const available = a?.available ?? 0;
  const required = yuanToUnits(amountYuan);
  return {
    sufficient: available >= required,
    available: unitsToYuan(available),
    required: unitsToYuan(required),
  };
}

/**
 * An administrator's manual correction: one `adjustment` ledger entry and its audit row in one
 * transaction. A debit may not take the balance below zero. `requestId` makes a retry count once.
 */
export async function adjustBalance(
  deps: BillingDeps,
  admin: AuthAdmin,
  userId: number,
  input: BalanceAdjustmentRequest,
  ip: string,
): Promise<{ balance: Balance; created: boolean }> {
  const at = deps.now();
  const created = await deps.db.transaction(async (tx) => {
    const user = await createAuthRepository({ db: tx }).userById(userId);
    if (!user) throw billingErrors.userMissing();
    const amount = yuanToUnits(input.amount);
    const result = await postLedgerEntry(tx, {
      userId,
      kind: 'adjustment',
      amount,
      idempotencyKey: `adjustment:${input.requestId ?? randomUUID()}`,
      reference: { type: 'admin', id: admin.id },
      memo: input.reason,
      at,
    });
    if (result.created) {
      await recordAudit(tx, { adminId: admin.id, ip }, 'billing.balance_adjustment', `user:${userId}`, {
        amount: input.amount,
        reason: input.reason,
        ledgerEntryId: result.entry.id,
      });
    }
    return result.created;
  });
  return { balance: await getBalance(deps, userId), created };
}
