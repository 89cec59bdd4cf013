import {
  applyRate,
  formatYuan,
  type Instance,
  OVERSEAS_DURATION,
  unitsToYuan,
  type VastaiCreateRequest,
  type VastaiOffer,
  type VastaiSshInfo,
  type VastaiStatus,
  vastaiMessages,
} from '@gpu/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { AuthUser } from '../auth/index.ts';
import { bestDiscount } from '../discounts/index.ts';
import { generateJupyterToken, generateRootPassword, hostErrors, lockHost } from '../hosts/index.ts';
import {
  actorLabel,
  createInstancesRepository,
  type InstanceListed,
  type InstanceWithPlace,
  instanceErrors,
  powerOff,
  powerOn,
  release,
  toInstanceView,
} from '../instances/index.ts';
import { createLedgerRepository } from '../ledger/index.ts';
import type { MarketRow } from '../market/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import type { VastaiDeps } from './vastai.deps.ts';
import { vastaiErrors } from './vastai.errors.ts';
import {
  imagesForOffer,
  type OverseasPricing,
  offerRowOf,
  overseasGpuHourUnits,
  overseasMarketRow,
  sellable,
  sshCommandOf,
  toVastaiOffer,
} from './vastai.models.ts';
import { createVastaiRepository } from './vastai.repository.ts';

/**
 * The offers task: vast.ai is asked outside any transaction, then the stored offers are
 * replaced in one transaction and the market is told. A failed search keeps the last offers.
 */
export async function refreshOffers(deps: VastaiDeps): Promise<{ count: number } | null> {
  if (!deps.vast) return null;
  const repo = createVastaiRepository(deps);
  // A region it makes is a market region at once, even if the search below fails.
  if (await repo.ensurePlace()) deps.market.invalidate();
  const at = deps.clock.now();
  try {
    const offers = (await deps.vast.searchOffers()).map((o) => offerRowOf(o, at)).filter(sellable);
    await deps.db.transaction(async (tx) => {
      const txRepo = createVastaiRepository({ db: tx });
      await txRepo.replaceOffers(offers);
      await txRepo.saveRefreshState({ at: at.toISOString(), ok: true, count: offers.length });
    });
    deps.market.invalidate();
    return { count: offers.length };
  } catch (err) {
    await repo.saveRefreshState({ at: at.toISOString(), ok: false, error: (err as Error).message });
    throw err;
  }
}

export async function overseasStatus(deps: VastaiDeps): Promise<VastaiStatus> {
  const repo = createVastaiRepository(deps);
  const [state, offers] = await Promise.all([repo.refreshState(), deps.vast ? repo.offers() : []]);
  const configured = deps.vast !== null;
  return {
    configured,
    message: !configured
      ? vastaiMessages.notConfigured
      : state && !state.ok
        ? `海外机器列表刷新失败：${state.error ?? ''}`.slice(0, 200)
        : !state
          ? '海外机器列表尚未刷新，请稍候'
          : null,
    lastRefreshAt: state?.at ?? null,
    lastRefreshOk: state?.ok ?? null,
    offerCount: offers.length,
  };
}

export async function listOffers(deps: VastaiDeps): Promise<VastaiOffer[]> {
  if (!deps.vast) throw vastaiErrors.notConfigured();
  const repo = createVastaiRepository(deps);
  const [offers, images] = await Promise.all([repo.offers(), repo.overseasImages()]);
  return offers.map((o) => toVastaiOffer(o, deps.pricing, imagesForOffer(o, images)));
}

/**
 * The overseas items of a tenant's market (the catalog calls this): the stored offers as rows
 * of the overseas region, last in region order; none without a key, host or permission.
 */
export async function overseasMarketRows(
  deps: { db: DbOrTx; configured: boolean; pricing: OverseasPricing },
  tenant: TenantRecord,
): Promise<MarketRow[]> {
  if (!deps.configured) return [];
  const repo = createVastaiRepository(deps);
  const place = await repo.place();
  // A disabled region's machines leave the market (its filter choice too).
  if (place?.hostStatus !== 'ACTIVE' || !place.regionEnabled) return [];
  const visible = tenant.config.visibleRegionResources;
  if (visible.length > 0 && !visible.includes(place.regionId)) return [];
  return (await repo.offers()).map((o) => overseasMarketRow(o, place, deps.pricing));
}

/**
 * POST /api/gpu/vastai/instance/create: one transaction makes the instance (CREATING, pay as
 * you go at our price of the offer, §9 disk 10 and duration 1) with its rental; the offer is
 * rented by the provisioning job. Billing starts once vast.ai reports it running.
 */
export async function createOverseasInstance(
  deps: VastaiDeps,
  user: AuthUser,
  tenant: TenantRecord,
  input: VastaiCreateRequest,
  idempotencyKey?: string,
): Promise<InstanceWithPlace> {
  if (!deps.vast) throw vastaiErrors.notConfigured();
  const repo = createVastaiRepository(deps);
  const [offer, place, images] = await Promise.all([
    repo.offer(input.offerId),
    repo.place(),
    repo.overseasImages(),
  ]);
  // A disabled overseas region sells nothing, as its offers left the market with it.
  if (!offer || !place?.regionEnabled) throw vastaiErrors.offerGone();
  const visible = tenant.config.visibleRegionResources;
  if (visible.length > 0 && !visible.includes(place.regionId)) throw vastaiErrors.offerGone();
  if (!imagesForOffer(offer, images).includes(input.image)) throw vastaiErrors.imageUnavailable();
  const now = deps.clock.now();
  const perGpu = overseasGpuHourUnits(offer.usdMicrosPerHour, offer.numGpus, deps.pricing);
  const rule = bestDiscount(
    await deps.discounts.rulesFor(tenant.id),
    { tenantId: tenant.id, regionId: place.regionId, gpuModel: offer.gpuName },
    now,
  );
  const discountedPerGpu = applyRate(perGpu, rule?.rateBp);
  const hourlyRate = discountedPerGpu * offer.numGpus;
  const rootPassword = generateRootPassword();

  const outcome = await deps.db.transaction(async (tx) => {
    const host = await lockHost(tx, place.hostId);
    if (host.status !== 'ACTIVE') throw hostErrors.notActive();
    const instRepo = createInstancesRepository({ db: tx });
    const bought = idempotencyKey ? await instRepo.findByIdempotencyKey(user.id, idempotencyKey) : undefined;
    if (bought) return { id: bought.id, isNew: false };
    const account = await createLedgerRepository({ db: tx }).account(user.id);
    if (!account || account.available < hourlyRate) {
      throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(hourlyRate)));
    }
    const txRepo = createVastaiRepository({ db: tx });
    // An offer rents once: of two purchases racing for it, the second finds it gone.
    if (!(await txRepo.takeOffer(offer.offerId))) throw vastaiErrors.offerGone();
    const skuId = await txRepo.insertRentalSku({
      hostId: place.hostId,
      gpuModel: offer.gpuName,
      memoryGb: offer.gpuMemoryGb,
      cpuPerGpu: Math.floor(offer.cpuCores / Math.max(offer.numGpus, 1)),
      diskGb: input.diskSpace,
      hourlyPrice: perGpu,
    });
    const inst = await instRepo.insert({
      tenantId: tenant.id,
      userId: user.id,
      hostId: place.hostId,
      skuId,
      regionId: place.regionId,
      name: input.label,
      image: input.image,
      gpuModel: offer.gpuName,
      gpuCount: offer.numGpus,
      gpuIndices: Array.from({ length: offer.numGpus }, (_, k) => k),
      billingType: 'hourly',
      hourlyRate,
      packageUnitPrice: null,
      discountRateBp: rule?.rateBp ?? null,
      duration: OVERSEAS_DURATION,
      status: 'CREATING',
      rootPasswordEnc: deps.box.seal(rootPassword),
      jupyterTokenEnc: deps.box.seal(generateJupyterToken()),
      transitionAt: now,
      idempotencyKey: idempotencyKey ?? null,
      createdAt: now,
    });
    await txRepo.insertRental({
      instanceId: inst.id,
      offerId: offer.offerId,
      usdMicrosPerHour: offer.usdMicrosPerHour,
      diskGb: input.diskSpace,
      updatedAt: now,
    });
    await instRepo.event(
      inst.id,
      null,
      'CREATING',
      actorLabel({ kind: 'user', id: user.id }),
      '创建海外实例',
      now,
    );
    return { id: inst.id, isNew: true };
  });
  if (outcome.isNew) deps.market.invalidate();
  const placed = await createInstancesRepository(deps).find(outcome.id);
  if (outcome.isNew) deps.jobs.kick(outcome.id);
  if (!placed) throw instanceErrors.notFound();
  return placed;
}

const view = (deps: VastaiDeps, i: InstanceListed): Instance =>
  toInstanceView(i, { now: deps.clock.now(), box: deps.box, retentionDays: deps.retentionDays });

export async function listOverseasInstances(deps: VastaiDeps, user: AuthUser): Promise<Instance[]> {
  const { rows } = await createInstancesRepository(deps).listForUser(user.id, user.tenantId, {
    page: 1,
    size: 500,
  });
  return rows.filter((r) => r.hostDriver === 'vastai').map((r) => view(deps, r));
}

async function ownedOverseas(deps: VastaiDeps, user: AuthUser, id: number) {
  const inst = await createInstancesRepository(deps).findOwned(id, user.id, user.tenantId);
  if (inst?.hostDriver !== 'vastai') throw vastaiErrors.notOverseas();
  return inst;
}

/** Start, stop and destroy of §7: the instances' own power rules, on overseas instances only. */
export async function overseasPower(
  deps: VastaiDeps,
  user: AuthUser,
  id: number,
  action: 'start' | 'stop' | 'destroy',
): Promise<Instance> {
  const inst = await ownedOverseas(deps, user, id);
  const actor = { kind: 'user', id: user.id } as const;
  const started =
    action === 'start'
      ? await powerOn(deps, id, actor)
      : action === 'stop'
        ? await powerOff(deps, id, actor, 'user')
        : await release(deps, id, actor);
  // The state this request set, not wherever its job has got to since.
  return view(deps, { ...inst, ...started });
}

export async function overseasSshInfo(deps: VastaiDeps, user: AuthUser, id: number): Promise<VastaiSshInfo> {
  const inst = await ownedOverseas(deps, user, id);
  const rental = await createVastaiRepository(deps).rental(id);
  const live = inst.status === 'RUNNING';
  const host = live ? inst.sshHost : null;
  const port = live ? inst.sshPort : null;
  return {
    instanceId: id,
    host,
    port,
    command: sshCommandOf(host, port),
    vastStatus: rental?.vastStatus ?? null,
  };
}
