import {
  type AdminActor,
  type AdminDashboard,
  type DiscountAdminView,
  type DiscountInput,
  type DiscountListQuery,
  type Page,
  RATE_SCALE,
  unitsToYuan,
} from '@gpu/shared';
import { shanghaiDayStart, shanghaiToday } from '@gpu/shared/time';
import type { Now } from '../../platform/clock.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { createError } from '../../platform/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { createDashboardRepository } from './dashboard.repository.ts';
import {
  createDiscountsRepository,
  type DiscountListRow,
  type DiscountState,
} from './discounts.repository.ts';

/** Anything that reads discounts (the service's cache, the market catalog) drops what it kept. */
export interface DiscountAdminDeps {
  db: Db;
  now: Now;
  invalidate: () => void;
}

/**
 * A tenant operator's tenant (issue 29): it sees and changes only its own tenant's rules, never
 * the platform-wide ones (tenant null) nor another tenant's; null: a platform administrator.
 */
type Scope = number | null;

const notFound = () => createError({ code: 'discounts.not_found', status: 404, message: '折扣活动不存在' });
const missing = (what: string) =>
  createError({ code: 'discounts.scope_not_found', status: 422, message: `${what}不存在` });
const target = (id: number) => `discount:${id}` as const;

function stateOf(d: DiscountListRow, now: Date): DiscountState {
  if (!d.enabled) return 'DISABLED';
  if (d.startsAt > now) return 'PENDING';
  return d.endsAt <= now ? 'ENDED' : 'ACTIVE';
}

function toView(d: DiscountListRow, now: Date): DiscountAdminView {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    discountRate: d.rateBp / RATE_SCALE,
    tenantId: d.tenantId,
    tenantName: d.tenantName,
    regionId: d.regionId,
    regionName: d.regionName,
    gpuType: d.gpuModel,
    startTime: d.startsAt.toISOString(),
    endTime: d.endsAt.toISOString(),
    enabled: d.enabled,
    state: stateOf(d, now),
    createdAt: d.createdAt.toISOString(),
  };
}

const columns = (input: DiscountInput, now: Date) => ({
  name: input.name,
  description: input.description,
  rateBp: Math.round(input.discountRate * RATE_SCALE),
  tenantId: input.tenantId ?? null,
  regionId: input.regionId ?? null,
  gpuModel: input.gpuType || null,
  startsAt: new Date(input.startTime),
  endsAt: new Date(input.endTime),
  enabled: input.enabled,
  updatedAt: now,
});

export async function listDiscounts(
  { db, now }: DiscountAdminDeps,
  q: DiscountListQuery,
  scope: Scope,
): Promise<Page<DiscountAdminView>> {
  const at = now();
  const { rows, total } = await createDiscountsRepository({ db }).list({ ...q, tenantId: scope }, at, q);
  return { list: rows.map((r) => toView(r, at)), total, page: q.page, size: q.size };
}

async function viewOf(deps: DiscountAdminDeps, id: number) {
  const at = deps.now();
  const [row] = (await createDiscountsRepository(deps).list({ id }, at, { page: 1, size: 1 })).rows;
  if (!row) throw notFound();
  return toView(row, at);
}

/** Every write: checked, audited in its transaction, then the caches dropped after commit. */
async function write<T>(
  deps: DiscountAdminDeps,
  fn: (repo: ReturnType<typeof createDiscountsRepository>, tx: Tx) => Promise<T>,
): Promise<T> {
  const out = await deps.db.transaction((tx) => fn(createDiscountsRepository({ db: tx }), tx));
  deps.invalidate();
  return out;
}

async function checkScope(repo: ReturnType<typeof createDiscountsRepository>, input: DiscountInput) {
  if (input.tenantId && !(await repo.exists('tenant', input.tenantId))) throw missing('租户');
  if (input.regionId && !(await repo.exists('region', input.regionId))) throw missing('地区');
}

/** A tenant operator's rule applies to its own tenant, whatever tenant the form names. */
const scoped = (input: DiscountInput, scope: Scope): DiscountInput =>
  scope === null ? input : { ...input, tenantId: scope };

export async function createDiscount(
  deps: DiscountAdminDeps,
  actor: AdminActor,
  input: DiscountInput,
  scope: Scope,
) {
  const id = await write(deps, async (repo, tx) => {
    await checkScope(repo, scoped(input, scope));
    const row = await repo.insert(columns(scoped(input, scope), deps.now()));
    if (!row) throw new Error('discount insert returned nothing');
    await recordAudit(tx, actor, 'discount.create', target(row.id), { after: row });
    return row.id;
  });
  return viewOf(deps, id);
}

export async function updateDiscount(
  deps: DiscountAdminDeps,
  actor: AdminActor,
  id: number,
  input: DiscountInput,
  scope: Scope,
) {
  await write(deps, async (repo, tx) => {
    const before = await repo.find(id, scope);
    if (!before) throw notFound();
    await checkScope(repo, scoped(input, scope));
    const after = await repo.update(id, columns(scoped(input, scope), deps.now()));
    await recordAudit(tx, actor, 'discount.update', target(id), { before, after });
  });
  return viewOf(deps, id);
}

export async function setDiscountStatus(
  deps: DiscountAdminDeps,
  actor: AdminActor,
  id: number,
  enabled: boolean,
  scope: Scope,
) {
  await write(deps, async (repo, tx) => {
    const before = await repo.find(id, scope);
    if (!before) throw notFound();
    await repo.update(id, { enabled, updatedAt: deps.now() });
    await recordAudit(tx, actor, 'discount.status', target(id), {
      before: { enabled: before.enabled },
      after: { enabled },
    });
  });
  return viewOf(deps, id);
}

/** A discount is only a rule: past orders keep their price snapshot, so deleting is safe. */
export async function deleteDiscount(deps: DiscountAdminDeps, actor: AdminActor, id: number, scope: Scope) {
  await write(deps, async (repo, tx) => {
    const before = await repo.find(id, scope);
    if (!before) throw notFound();
    await repo.delete(id);
    await recordAudit(tx, actor, 'discount.delete', target(id), { before });
  });
}

export async function adminDashboard({ db, now }: { db: Db; now: Now }): Promise<AdminDashboard> {
  const at = now();
  const f = await createDashboardRepository({ db }).figures(shanghaiDayStart(shanghaiToday(at)), at);
  return {
    users: f.users,
    runningInstances: f.running,
    todayRevenue: unitsToYuan(f.revenue),
    totalBalances: unitsToYuan(f.balances),
    activeDiscounts: await createDiscountsRepository({ db }).activeCount(at),
    unusedVoucherValue: unitsToYuan(f.voucherValue),
  };
}

/** A tenant operator picks only its own tenant, and the regions its storefront shows. */
export const promotionScopes = ({ db }: { db: Db }, scope: Scope) =>
  createDiscountsRepository({ db }).scopes(scope);
