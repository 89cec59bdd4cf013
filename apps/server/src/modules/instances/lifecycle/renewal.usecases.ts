import { DURATION_LIMITS, type PackageType, roundToFen, unitsToYuan } from '@gpu/shared';
import type { AuthUser } from '../../auth/index.ts';
import { postLedgerEntry } from '../../ledger/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { packageEnd } from '../instances.models.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';

const UNIT: Record<PackageType, string> = { daily: '天', weekly: '周', monthly: '个月' };

/** A renewal continues from the current end, or from now when the package already ran out. */
/**
 * One period of the whole instance at its snapshot price. Snapshots are whole fen since issue 10;
 * one taken before is rounded here, so a renewal never charges sub-fen amounts.
 */
const periodPrice = (i: InstanceRow) => roundToFen(i.packageUnitPrice as number) * i.gpuCount;

const renewFrom = (i: InstanceRow, now: Date) =>
  i.expiresAt && i.expiresAt.getTime() > now.getTime() ? i.expiresAt : now;

async function ownedPackage(deps: InstanceDeps, user: AuthUser, id: number) {
  const inst = await createInstancesRepository(deps).findOwned(id, user.id, user.tenantId);
  if (!inst) throw instanceErrors.notFound();
  if (inst.billingType === 'hourly' || inst.packageUnitPrice === null) throw instanceErrors.notPackage();
  if (inst.status === 'RELEASED' || inst.status === 'FAILED')
    throw instanceErrors.badState(inst.status, '续费');
  return inst;
}

/** GET /api/v2/package-billing/renewal-pricing/{id}: the snapshot price, per allowed duration. */
export async function renewalPricing(deps: InstanceDeps, user: AuthUser, id: number) {
  const inst = await ownedPackage(deps, user, id);
  const type = inst.billingType as PackageType;
  const now = deps.clock.now();
  const unit = periodPrice(inst);
  const { max } = DURATION_LIMITS[type];
  return {
    instanceId: inst.id,
    billingType: inst.billingType,
    gpuCount: inst.gpuCount,
    unitPrice: unitsToYuan(unit),
    discountedUnitPrice: unitsToYuan(unit),
    maxDuration: max,
    expiresAt: inst.expiresAt?.toISOString() ?? null,
    options: Array.from({ length: max }, (_, k) => ({
      duration: k + 1,
      amount: unitsToYuan(unit * (k + 1)),
      newExpiresAt: (packageEnd(type, k + 1, renewFrom(inst, now)) as Date).toISOString(),
    })),
  };
}

/**
 * The ledger key of a renewal. With the client's idempotency key it names the user's action, so
 * even two transactions racing with one key post once; without it, the current end names the
 * renewal (a retry that lands after the first renewal committed is a second renewal).
 */
export const renewalLedgerKey = (instanceId: number, userId: number, from: Date, idempotencyKey?: string) =>
  idempotencyKey
    ? `instance:${instanceId}:renew:user:${userId}:key:${idempotencyKey}`
    : `instance:${instanceId}:renew:${from.toISOString()}`;

/**
 * POST /api/v2/package-billing/manual-renewal: charges `duration` periods at the price the
 * package was bought at and extends its end, in one transaction. A renewal whose ledger key was
 * already posted changes nothing and answers the end as it stands.
 */
export async function renew(
  deps: InstanceDeps,
  user: AuthUser,
  input: { instanceId: number; duration: number },
  idempotencyKey?: string,
) {
  const inst = await ownedPackage(deps, user, input.instanceId);
  const type = inst.billingType as PackageType;
  const { max } = DURATION_LIMITS[type];
  if (input.duration > max) throw instanceErrors.renewalTooLong(max, UNIT[type]);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (!locked || locked.status === 'RELEASED' || locked.status === 'FAILED')
      throw instanceErrors.badState(locked?.status ?? 'RELEASED', '续费');
    const amount = periodPrice(locked) * input.duration;
    const from = renewFrom(locked, now);
    const expiresAt = packageEnd(type, input.duration, from) as Date;
    const { entry, created } = await postLedgerEntry(tx, {
      userId: locked.userId,
      kind: 'charge',
      amount: -amount,
      idempotencyKey: renewalLedgerKey(locked.id, user.id, from, idempotencyKey),
      reference: { type: 'instance', id: locked.id },
      memo: `续费 ${locked.name} ×${input.duration}`,
      at: now,
    });
    if (!created) {
      // Already renewed under this key (a racing or taken-over retry): charge and extend once.
      return {
        instanceId: locked.id,
        expiresAt: (locked.expiresAt ?? from).toISOString(),
        amount: unitsToYuan(-entry.amount),
      };
    }
    await repo.update(locked.id, { expiresAt, charged: locked.charged + amount, warning: null });
    await repo.event(
      locked.id,
      locked.status,
      locked.status,
      `user:${user.id}`,
      `续费${input.duration}${UNIT[type]}至${expiresAt.toISOString()}`,
      now,
    );
    await repo.bill({
      tenantId: locked.tenantId,
      userId: locked.userId,
      instanceId: locked.id,
      billingType: locked.billingType,
      kind: 'renewal',
      periodStart: from,
      periodEnd: expiresAt,
      amount,
      ledgerEntryId: entry.id,
      createdAt: now,
    });
    return { instanceId: locked.id, expiresAt: expiresAt.toISOString(), amount: unitsToYuan(amount) };
  });
}
