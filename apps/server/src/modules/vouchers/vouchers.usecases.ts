import {
  type Page,
  unitsToYuan,
  VOUCHER_EXPIRING_DAYS,
  type VoucherAvailableQuery,
  type VoucherListQuery,
  type VoucherOrder,
  type VoucherStats,
  type VoucherValidateInput,
  type VoucherValidation,
  type VoucherView,
  voucherDeduction,
  voucherRefusal,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { voucherFigures } from './voucher-stats.repository.ts';
import { voucherErrors } from './vouchers.errors.ts';
import { factsOf, toVoucherView } from './vouchers.models.ts';
import { createVouchersRepository } from './vouchers.repository.ts';

export interface VoucherDeps {
  db: DbOrTx;
  now: Now;
}

const DAY_MS = 86_400_000;

/** GET /user/vouchers: the user's vouchers, newest expiry first, optionally by status. */
export async function listVouchers(
  { db, now }: VoucherDeps,
  userId: number,
  q: VoucherListQuery,
): Promise<Page<VoucherView>> {
  const at = now();
  const { rows, total } = await createVouchersRepository({ db }).listForUser(
    userId,
    { status: q.status, now: at },
    { offset: (q.page - 1) * q.size, size: q.size },
  );
  return { list: rows.map((r) => toVoucherView(r, at)), total, page: q.page, size: q.size };
}

/**
 * GET /user/vouchers/available: what could pay for an order of this scope and amount — usable
 * (unless another status is asked for), scope any or matching, minimum reached.
 */
export async function availableVouchers(
  { db, now }: VoucherDeps,
  userId: number,
  q: VoucherAvailableQuery,
): Promise<Page<VoucherView>> {
  const at = now();
  const { rows, total } = await createVouchersRepository({ db }).listForUser(
    userId,
    {
      status: q.status ?? 'UNUSED',
      now: at,
      scope: {
        regionId: q.regionId,
        gpuType: q.gpuType,
        minAmount: q.minAmount === undefined ? undefined : yuanToUnits(q.minAmount),
      },
    },
    { offset: q.page * q.size, size: q.size },
  );
  return { list: rows.map((r) => toVoucherView(r, at)), total, page: q.page, size: q.size };
}

export async function voucherStats({ db, now }: VoucherDeps, userId: number): Promise<VoucherStats> {
  const at = now();
  const s = await voucherFigures(db, userId, at, new Date(at.getTime() + VOUCHER_EXPIRING_DAYS * DAY_MS));
  return { ...s, totalValue: unitsToYuan(s.totalValue) };
}

/** POST /user/vouchers/validate (and /use): the deduction for this order, or why not. */
export async function validateVoucher(
  { db, now }: VoucherDeps,
  userId: number,
  input: VoucherValidateInput,
): Promise<VoucherValidation> {
  const v = await createVouchersRepository({ db }).findOfUser(userId, { code: input.voucherCode });
  if (!v) return { valid: false, voucherId: null, deduction: 0, reason: '代金券不存在' };
  const amount = yuanToUnits(input.orderAmount);
  const reason = voucherRefusal(factsOf(v), { ...input, amount }, now());
  return {
    valid: reason === null,
    voucherId: v.id,
    deduction: reason === null ? unitsToYuan(voucherDeduction(v.remaining, amount)) : 0,
    reason,
  };
}

/** What a voucher may take off an order now, read without locking (calculate-price). */
export async function previewDeduction(
  { db, now }: VoucherDeps,
  userId: number,
  voucherId: number,
  order: VoucherOrder,
): Promise<number> {
  const v = await createVouchersRepository({ db }).findOfUser(userId, { id: voucherId });
  if (!v) throw voucherErrors.notFound();
  const reason = voucherRefusal(factsOf(v), order, now());
  if (reason) throw voucherErrors.refused(reason);
  return voucherDeduction(v.remaining, order.amount);
}

/**
 * Takes an order's deduction out of a voucher, inside the order's transaction: the voucher row
 * is locked (lock order: after the host, before the account), ownership, state, scope and
 * minimum are checked again on the locked row, and min(remaining, order amount) is taken. Two
 * orders on one voucher run one after the other, so together they never take more than it held.
 */
export async function takeFromVoucher(
  tx: Tx,
  userId: number,
  voucherId: number,
  order: VoucherOrder,
  now: Date,
): Promise<number> {
  const repo = createVouchersRepository({ db: tx });
  const v = await repo.lock(voucherId);
  if (!v || v.userId !== userId) throw voucherErrors.notFound();
  const reason = voucherRefusal(factsOf(v), order, now);
  if (reason) throw voucherErrors.refused(reason);
  const take = voucherDeduction(v.remaining, order.amount);
  if (take > 0) await repo.addRemaining(voucherId, -take, now);
  return take;
}

/** Gives `amount` back to a voucher (failed create, unused pay-as-you-go hold). */
export async function returnToVoucher(tx: Tx, voucherId: number, amount: number, now: Date) {
  if (amount <= 0) return;
  const repo = createVouchersRepository({ db: tx });
  await repo.lock(voucherId);
  await repo.addRemaining(voucherId, amount, now);
}

/** Locks a voucher row early, to keep the lock order when the ledger comes before the return. */
export async function lockVoucher(tx: Tx, voucherId: number) {
  await createVouchersRepository({ db: tx }).lock(voucherId);
}
