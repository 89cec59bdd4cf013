import { type CreateInstanceRequest, formatYuan, INSTANCE_CONTAINER_PORTS, unitsToYuan } from '@gpu/shared';
import type { Tx } from '../../../platform/db/client.ts';
import { isUniqueViolation } from '../../../platform/db/errors.ts';
import type { AuthUser } from '../../auth/index.ts';
import type { PortRange } from '../../hosts/index.ts';
import {
  capabilitiesOf,
  generateJupyterToken,
  generateRootPassword,
  hostErrors,
  isUserImageRef,
  topUpPorts,
} from '../../hosts/index.ts';
import { postLedgerEntry } from '../../ledger/index.ts';
import { scopeOf } from '../../market/index.ts';
import { pricingErrors, quoteOfRow, voucherOrderOf } from '../../pricing/index.ts';
import type { TenantRecord } from '../../tenants/index.ts';
import { takeFromVoucher } from '../../vouchers/index.ts';
import { checkUserImageForCreate } from '../images/create-check.usecases.ts';
import { actorLabel, type InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { packageEnd } from '../instances.models.ts';
import {
  createInstancesRepository,
  type InstanceRow,
  type InstanceWithPlace,
} from '../instances.repository.ts';
import { createPurchaseRepository } from './purchase.repository.ts';

/**
 * POST /api/gpu/instance/create. Re-validates and re-prices everything (client prices are never
 * trusted), then in ONE transaction: the host share-locked first (lock order, ledger.ts; creates
 * on one host run side by side, each taking its own GPU and port rows), instance row (CREATING),
 * GPUs and ports, and for packages the whole charge through the ledger. No driver
 * call happens here: after commit the provisioning job is kicked (provisioning.ts) and the
 * instance is answered in CREATING; the job takes it to RUNNING, or FAILED with a refund.
 *
 * With the client's `Idempotency-Key` the purchase is named by it: the instance row carries it
 * (unique per user) and the package charge's ledger key derives from it, so a repeat that gets
 * past the HTTP claim (a takeover after a crash) answers the instance already bought; two such
 * at once meet at the key's unique index, and the second answers the first's instance.
 */
export async function createInstance(
  deps: InstanceDeps,
  user: AuthUser,
  tenant: TenantRecord,
  input: Omit<CreateInstanceRequest, 'extraPorts'> & { extraPorts?: number[] },
  idempotencyKey?: string,
  /**
   * A clone (clone.usecases.ts): the instance whose disks provisioning copies, and its check,
   * run first in the purchase's transaction (it locks the source: lock order instance → host).
   */
  opts: { cloneOf?: { id: number; name: string; check: (tx: Tx) => Promise<void> } } = {},
): Promise<InstanceWithPlace> {
  const now = deps.clock.now();
  const extraPorts = input.extraPorts ?? [];
  const rules = await deps.discounts.rulesFor(tenant.id);
  const rootPassword = generateRootPassword();
  // JupyterLab's own: a token seen in a browser's address bar or a notebook must not open SSH.
  const jupyterToken = generateJupyterToken();
  const actor = actorLabel({ kind: 'user', id: user.id });

  const purchase = () =>
    deps.db.transaction(async (tx) => {
      const repo = createInstancesRepository({ db: tx });
      const purchases = createPurchaseRepository({ db: tx });
      await opts.cloneOf?.check(tx);
      // The machine as a quote reads it, with its host share-locked before anything touches it
      // (lock order): concurrent creates do not queue here; a host change (FOR UPDATE) waits for
      // them, and they for it. Package prices, image check and balance come with it (one round trip).
      const pre = await purchases.shareSkuForCreate({
        scope: scopeOf(tenant),
        skuId: input.machineId,
        userId: user.id,
        imageUrl: input.image,
      });
      if (!pre) throw pricingErrors.machineNotFound();
      // Re-priced from these rows: client prices are never trusted.
      const quote = quoteOfRow({ now: () => now, rules }, tenant, input, pre.row, pre.platformPrices);
      // A user's saved image (images/): theirs, ready, and on this host unless in the registry.
      if (isUserImageRef(input.image))
        await checkUserImageForCreate(tx, user.id, input.image, quote.row.hostId);
      else if (!pre.imageUsable) throw instanceErrors.imageUnavailable();
      const host = pre.host;
      // A provider's machine (vast.ai) maps its own ports: none of the pool to publish extras on.
      if (extraPorts.length > 0 && !capabilitiesOf(quote.row.hostDriver).localAllocation)
        throw instanceErrors.extraPortsUnsupported();
      const hourlyRate = quote.billingType === 'hourly' ? quote.discountedUnitPrice * quote.gpuAmount : 0;
      // A second purchase with this key that runs at the same time fails at the key's unique
      // index instead (waiting for the first to commit): see below.
      const bought = idempotencyKey ? await repo.findByIdempotencyKey(user.id, idempotencyKey) : undefined;
      if (bought) return { inst: bought, isNew: false as const };
      // The voucher (locked: after the host, before the account) pays first: packages at purchase,
      // pay-as-you-go as a hold on the instance that metering spends before the balance.
      const fromVoucher = input.voucherId
        ? await takeFromVoucher(tx, user.id, input.voucherId, voucherOrderOf(quote), now)
        : 0;
      const payable = quote.payableAmount - fromVoucher;
      if (quote.billingType === 'hourly') {
        if (pre.available === null || pre.available < payable) {
          throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(payable)));
        }
      }
      const charges = quote.billingType !== 'hourly' && payable + fromVoucher > 0;
      // The row with its GPUs, ports and first event, in one statement.
      const inserted = await purchases.insertPlaced(
        {
          tenantId: tenant.id,
          userId: user.id,
          hostId: quote.row.hostId,
          skuId: quote.row.id,
          regionId: quote.row.regionId,
          name: input.instanceName,
          image: input.image,
          gpuModel: quote.row.gpuModel,
          gpuCount: quote.gpuAmount,
          billingType: quote.billingType,
          hourlyRate,
          packageUnitPrice: quote.billingType === 'hourly' ? null : quote.discountedUnitPrice,
          discountRateBp: quote.discount?.rateBp ?? null,
          duration: quote.billingType === 'hourly' ? 1 : quote.duration,
          status: 'CREATING',
          rootPasswordEnc: deps.box.seal(rootPassword),
          jupyterTokenEnc: deps.box.seal(jupyterToken),
          transitionAt: now,
          idempotencyKey: idempotencyKey ?? null,
          voucherId: input.voucherId ?? null,
          voucherHeld: quote.billingType === 'hourly' ? fromVoucher : 0,
          voucherUsed: quote.billingType === 'hourly' ? 0 : fromVoucher,
          // What the package charge below records (a refused charge rolls it all back).
          charged: charges ? payable : 0,
          createdAt: now,
        },
        {
          extraContainerPorts: extraPorts,
          event: {
            to: 'CREATING',
            actor,
            reason: opts.cloneOf ? `克隆实例（源实例 ${opts.cloneOf.name}）` : '创建实例',
            at: now,
          },
        },
      );
      const placed = await placedOnHost(tx, host, inserted, extraPorts);
      // A clone's provisioning copies this instance's disks (jobs/provisioning.usecases.ts).
      const transitionJob = opts.cloneOf ? { cloneOf: opts.cloneOf.id } : null;
      if (transitionJob) await repo.update(placed.id, { transitionJob });
      const inst = { ...placed, transitionJob };
      if (charges) {
        const posted =
          payable > 0
            ? await postLedgerEntry(tx, {
                userId: user.id,
                kind: 'charge',
                amount: -payable,
                idempotencyKey: createLedgerKey(inst.id, user.id, idempotencyKey),
                reference: { type: 'instance', id: inst.id },
                memo: `包期实例 ${inst.name} ×${inst.duration}`,
                at: now,
              })
            : null;
        await repo.bill({
          tenantId: tenant.id,
          userId: user.id,
          instanceId: inst.id,
          billingType: inst.billingType,
          kind: 'create',
          periodStart: now,
          periodEnd: packageEnd(inst.billingType, inst.duration, now) ?? now,
          amount: payable,
          voucherAmount: fromVoucher,
          ledgerEntryId: posted?.entry.id ?? null,
          createdAt: now,
        });
      }
      // The answer: the committed CREATING row where it stands (no second read after commit).
      const answer: InstanceWithPlace = {
        ...inst,
        hostName: quote.row.hostName,
        publicAddress: host.publicAddress,
        hostDriver: quote.row.hostDriver,
        regionName: quote.row.regionName,
      };
      return { inst: answer, isNew: true as const };
    });
  const outcome = await purchase().catch(async (e) => {
    const bought =
      idempotencyKey && isUniqueViolation(e)
        ? await createInstancesRepository(deps).findByIdempotencyKey(user.id, idempotencyKey)
        : undefined;
    if (!bought) throw e;
    return { inst: bought, isNew: false as const };
  });
  if (!outcome.isNew) {
    // Bought before (a repeat with the same key): where it stands now.
    const placed = await createInstancesRepository(deps).find(outcome.inst.id);
    if (!placed) throw instanceErrors.notFound();
    return placed;
  }
  deps.market.invalidate();
  deps.jobs.kick(outcome.inst.id);
  return outcome.inst;
}

/**
 * The just-inserted instance (`insertPlaced`) checked: throws when its host had too few idle
 * GPUs; a port pool never filled, or being filled by a concurrent first allocation, is topped up
 * and the rest taken (allocateOnHost's rule, the rare path).
 */
async function placedOnHost(
  tx: Tx,
  host: PortRange,
  inst: InstanceRow,
  extraContainerPorts: number[],
): Promise<InstanceRow> {
  if (inst.gpuIndices.length < inst.gpuCount)
    throw hostErrors.insufficientGpus(inst.gpuCount, inst.gpuIndices.length);
  const portCount = INSTANCE_CONTAINER_PORTS.length + extraContainerPorts.length;
  const held = [inst.sshPort, inst.jupyterPort, ...inst.extraPorts.map((p) => p.hostPort)].filter(
    (p): p is number => p !== null,
  );
  if (held.length >= portCount) return inst;
  const ports = await topUpPorts(tx, host, inst.id, held, portCount);
  const topped = {
    sshPort: ports[0] ?? null,
    jupyterPort: ports[1] ?? null,
    extraPorts: extraContainerPorts.map((containerPort, i) => ({
      containerPort,
      hostPort: ports[INSTANCE_CONTAINER_PORTS.length + i] as number,
    })),
  };
  await createInstancesRepository({ db: tx }).update(inst.id, topped);
  return { ...inst, ...topped };
}

/** The package charge of a create: named by the client's key when it sent one. */
export const createLedgerKey = (instanceId: number, userId: number, idempotencyKey?: string) =>
  idempotencyKey ? `instance:create:user:${userId}:key:${idempotencyKey}` : `instance:${instanceId}:create`;
