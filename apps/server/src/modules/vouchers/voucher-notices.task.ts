import { formatMoney, unitsToYuan } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import type { Task } from '../../platform/tasks.ts';
import { createNoticesRepository } from '../notices/index.ts';
import { createVoucherNoticesRepository } from './voucher-notices.repository.ts';
import type { VouchersDeps } from './vouchers.deps.ts';

const DAY = 86_400_000;
/** A voucher still holding money is told this long before it ends. */
export const VOUCHER_EXPIRING_DAYS = 3;
/** Vouchers issued longer ago than this are not told as received (a first start on old data). */
const RECEIVED_WITHIN_MS = 3 * DAY;
const BATCH = 500;

/**
 * Tells owners of vouchers received and about to end (issue 31). Scans rather than hooks the
 * distribution, so a batch of thousands commits at once and its notices follow; the dedupe keys
 * (`voucher_received:<id>`, `voucher_expiring:<id>:<end ms>`) keep each once on every replica.
 */
export async function runVoucherNotices(deps: VouchersDeps) {
  const now = deps.now();
  const repo = createVoucherNoticesRepository(deps);
  const notices = createNoticesRepository(deps);
  let told = 0;
  for (const v of await repo.receivedUntold(new Date(now.getTime() - RECEIVED_WITHIN_MS), BATCH)) {
    const id = await notices.notify({
      userId: v.userId,
      event: 'voucher_received',
      title: '收到代金券',
      body: `您收到一张代金券「${v.name}」，面额 ${formatMoney(unitsToYuan(v.amount))}，有效期至 ${formatTime(v.expiresAt, 'YYYY-MM-DD HH:mm')}。`,
      dedupeKey: `voucher_received:${v.id}`,
      params: { voucherId: v.id, amount: unitsToYuan(v.amount), expiresAt: v.expiresAt.toISOString() },
    });
    if (id !== null) told++;
  }
  const until = new Date(now.getTime() + VOUCHER_EXPIRING_DAYS * DAY);
  for (const v of await repo.expiringUntold(now, until, BATCH)) {
    const id = await notices.notify({
      userId: v.userId,
      event: 'voucher_expiring',
      title: '代金券即将过期',
      body: `您的代金券「${v.name}」还剩 ${formatMoney(unitsToYuan(v.remaining))}，将于 ${formatTime(v.expiresAt, 'YYYY-MM-DD HH:mm')} 过期，请尽快使用。`,
      dedupeKey: `voucher_expiring:${v.id}:${v.expiresAt.getTime()}`,
      params: { voucherId: v.id, remaining: unitsToYuan(v.remaining), expiresAt: v.expiresAt.toISOString() },
    });
    if (id !== null) told++;
  }
  return { told };
}

export const VOUCHER_NOTICES_TASK = 'vouchers.notices';
export const voucherNoticesTask = (deps: VouchersDeps): Task => ({
  name: VOUCHER_NOTICES_TASK,
  intervalMs: 60_000,
  run: () => runVoucherNotices(deps),
});
