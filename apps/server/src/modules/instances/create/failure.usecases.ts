import { formatMoney, unitsToYuan } from '@gpu/shared';
import {
  ContainerNotFoundError,
  containerNameOf,
  createHostsRepository,
  isDriverError,
  releaseOnHost,
} from '../../hosts/index.ts';
import { postLedgerEntry } from '../../ledger/index.ts';
import { createNoticesRepository } from '../../notices/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import { returnVoucherOf } from '../metering/voucher-hold.ts';
import { dropCloneTransferOf } from './clone-transfer.usecases.ts';

/**
 * The instance's container is gone from its host (or there never was one): true; false when the
 * host could not be asked or refused, so the container may still hold the GPUs.
 */
export async function removeContainerOf(deps: InstanceDeps, inst: InstanceRow): Promise<boolean> {
  const host = await createHostsRepository(deps).find(inst.hostId);
  if (!host) return true;
  try {
    const driver = deps.hostDrivers.forHost(host);
    const named = await driver.findByName(containerNameOf(inst.id));
    const ids = new Set([inst.containerId, named?.id].filter((c): c is string => Boolean(c)));
    for (const id of ids) {
      await driver.remove(id).catch((err) => {
        if (!(err instanceof ContainerNotFoundError)) throw err;
      });
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Create failed: FAILED and every charge refunded (once: the refund's ledger key). FAILED comes
 * first, so nothing can take the instance to RUNNING afterwards; then its container is removed,
 * and only once it is known to be gone do the GPUs and ports go back (else reconcile finishes
 * that), so no container ever runs on GPUs the database counts as free.
 */
export async function failCreate(deps: InstanceDeps, inst: InstanceRow, cause: unknown) {
  const now = deps.clock.now();
  const detail = isDriverError(cause) ? cause.message : '主机暂时不可用';
  const failed = await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (locked?.status !== 'CREATING') return false;
    await repo.update(inst.id, {
      status: 'FAILED',
      transitionAt: null,
      claimedUntil: null,
      // What happened to the money, in the words the console shows: packages were charged at
      // create and get it all back; pay-as-you-go had only a voucher hold (returned below).
      stopReason:
        `创建失败：${detail}，${locked.charged > 0 || locked.voucherUsed > 0 ? '费用已全额退回' : '未扣费'}`.slice(
          0,
          200,
        ),
      charged: 0,
    });
    // Lock order: instance → voucher → account. What the voucher paid or holds goes back to it.
    const voucherBack = await returnVoucherOf(tx, locked, now, { includeUsed: true });
    await repo.event(
      inst.id,
      'CREATING',
      'FAILED',
      'system',
      String((cause as Error)?.message ?? cause).slice(0, 500),
      now,
    );
    if (locked.charged > 0 || locked.voucherUsed > 0) {
      const refund =
        locked.charged > 0
          ? await postLedgerEntry(tx, {
              userId: inst.userId,
              kind: 'refund',
              amount: locked.charged,
              idempotencyKey: `instance:${inst.id}:create-refund`,
              reference: { type: 'instance', id: inst.id },
              memo: `实例 ${inst.name} 创建失败退款`,
              at: now,
            })
          : null;
      await repo.bill({
        tenantId: inst.tenantId,
        userId: inst.userId,
        instanceId: inst.id,
        billingType: inst.billingType,
        kind: 'refund',
        periodStart: now,
        periodEnd: now,
        amount: -locked.charged,
        voucherAmount: -voucherBack.used,
        ledgerEntryId: refund?.entry.id ?? null,
        createdAt: now,
      });
    }
    const back = [
      locked.charged > 0 ? `已退回 ${formatMoney(unitsToYuan(locked.charged))} 到余额` : '',
      voucherBack.used > 0 ? `代金券抵扣的 ${formatMoney(unitsToYuan(voucherBack.used))} 已退回代金券` : '',
    ].filter(Boolean);
    await createNoticesRepository({ db: tx }).notify({
      userId: inst.userId,
      instanceId: inst.id,
      event: 'create_failed_refunded',
      title: '实例创建失败',
      body: `实例「${inst.name}」创建失败（${detail}），${back.length > 0 ? back.join('，') : '未扣费'}。`,
      dedupeKey: `create_failed_refunded:${inst.id}`,
      params: {
        instanceName: inst.name,
        refunded: unitsToYuan(locked.charged),
        voucherReturned: unitsToYuan(voucherBack.used),
      },
    });
    return true;
  });
  if (failed) {
    await freeIfContainerGone(deps, inst);
    await dropCloneTransferOf(deps, inst).catch(() => undefined);
  }
  deps.market.invalidate();
}

/**
 * A released or failed instance's GPUs and ports go back once its container is confirmed gone
 * (removed now if still there). False when the host could not confirm it: try again later.
 */
export async function freeIfContainerGone(deps: InstanceDeps, inst: InstanceRow): Promise<boolean> {
  if (!(await removeContainerOf(deps, inst))) return false;
  await deps.db.transaction(async (tx) => {
    // Lock order: instance → host.
    const locked = await createInstancesRepository({ db: tx }).lock(inst.id);
    if (locked?.status !== 'FAILED' && locked?.status !== 'RELEASED') return;
    await releaseOnHost(tx, { hostId: inst.hostId, instanceId: inst.id });
  });
  return true;
}
