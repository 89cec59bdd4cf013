import { randomBytes } from 'node:crypto';
import {
  type AdminActor,
  type DistributionDetail,
  type DistributionExecuteInput,
  type DistributionListQuery,
  type DistributionPreview,
  type DistributionResult,
  type DistributionSkip,
  type DistributionTarget,
  type DistributionView,
  type Page,
  voucherExpiry,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { sortPhones } from './distribution.models.ts';
import {
  createDistributionRepository,
  type DistributionRow,
  type TargetUser,
} from './distribution.repository.ts';
import { voucherErrors } from './vouchers.errors.ts';
import { createVouchersRepository } from './vouchers.repository.ts';

export interface DistributionDeps {
  db: Db;
  now: Now;
}

const SAMPLE_SIZE = 10;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A voucher code: V + 12 characters without look-alikes (0/O, 1/I). */
export function voucherCode(): string {
  const bytes = randomBytes(12);
  return `V${[...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

/** A tenant operator's tenant (issue 29): it distributes only its own configs; null: all. */
type Scope = number | null;

/**
 * The target limited to one tenant: a tenant's config (and any tenant operator) reaches only
 * that tenant's users, whatever tenant the target names.
 */
function confine(t: DistributionTarget, tenantId: number | null): DistributionTarget {
  if (tenantId === null) return t;
  return t.type === 'tenant' ? { type: 'tenant', tenantId } : { ...t, tenantId };
}

/**
 * Whom a target reaches, and (for a phone list) each listed phone it skips, with why. A tenant
 * operator is not told that a phone belongs to another tenant: to it, that phone is unregistered.
 */
async function resolveTargets(
  db: DbOrTx,
  t: DistributionTarget,
  scope: Scope,
): Promise<{ users: TargetUser[]; skipped: DistributionSkip[] }> {
  const repo = createDistributionRepository({ db });
  if (t.type === 'phones') {
    const { reached, skipped } = sortPhones(
      t.phones,
      await repo.phoneOwners([...new Set(t.phones)]),
      t.tenantId,
    );
    const told =
      scope === null
        ? skipped
        : skipped.map((s) => (s.reason === 'other_tenant' ? { ...s, reason: 'not_registered' as const } : s));
    return { users: reached, skipped: told };
  }
  return { users: await targetUsers(repo, t), skipped: [] };
}

async function targetUsers(
  repo: ReturnType<typeof createDistributionRepository>,
  t: Exclude<DistributionTarget, { type: 'phones' }>,
): Promise<TargetUser[]> {
  if (t.type === 'registered') {
    const from = new Date(t.from.length === 10 ? `${t.from}T00:00:00+08:00` : t.from);
    const to = new Date(t.to.length === 10 ? `${t.to}T23:59:59.999+08:00` : t.to);
    if (to <= from) throw voucherErrors.badWindow();
    return repo.targetUsers({ type: 'registered', from, to, tenantId: t.tenantId });
  }
  if (t.type === 'spend') return repo.targetUsers({ ...t, minSpend: yuanToUnits(t.minSpend) });
  return repo.targetUsers(t);
}

/** The targeted users already holding the config's per-user limit: they are skipped. */
function atLimit(users: TargetUser[], held: Map<number, number>, limit: number): DistributionSkip[] {
  return users
    .filter((u) => (held.get(u.userId) ?? 0) >= limit)
    .map((u) => ({ phone: u.phone, reason: 'at_limit' as const }));
}

/** Who a distribution would reach, and how many of them are at the config's per-user limit. */
export async function previewDistribution(
  { db }: DistributionDeps,
  input: { configId: number; target: DistributionTarget },
  scope: Scope,
): Promise<DistributionPreview> {
  const repo = createVouchersRepository({ db });
  const cfg = await repo.findConfig(input.configId, { tenantId: scope });
  if (!cfg || cfg.archived) throw voucherErrors.configNotFound();
  const { users, skipped } = await resolveTargets(db, confine(input.target, scope ?? cfg.tenantId), scope);
  const held = await repo.heldOfConfig(
    cfg.id,
    users.map((u) => u.userId),
  );
  const full = atLimit(users, held, cfg.perUserLimit);
  return {
    count: users.length,
    atLimit: full.length,
    sample: users.slice(0, SAMPLE_SIZE).map(({ userId, phone, username }) => ({ userId, phone, username })),
    skipped: [...skipped, ...full],
  };
}

/**
 * Issues one voucher of the config to every target user under its per-user limit, in one
 * transaction with the distribution row and who-got-what. Idempotent per `requestId`: executing
 * the same distribution again (a double click, a retry) answers the first one and issues nothing.
 * The config row is locked, so two distributions of one config cannot both pass the limit.
 */
export async function executeDistribution(
  deps: DistributionDeps,
  actor: AdminActor,
  input: DistributionExecuteInput,
  scope: Scope,
): Promise<{ distribution: DistributionResult; repeated: boolean }> {
  const now = deps.now();
  const out = await deps.db.transaction(async (tx) => {
    const repo = createVouchersRepository({ db: tx });
    const distributions = createDistributionRepository({ db: tx });
    const cfg = await repo.findConfig(input.configId, { lock: true, tenantId: scope });
    // Another tenant's config is not found, even for a request id that was used with it.
    if (scope !== null && !cfg) throw voucherErrors.configNotFound();
    const prior = await distributions.findDistribution({ requestId: input.requestId });
    if (prior) {
      if (prior.configId !== input.configId) throw voucherErrors.requestReused();
      return { row: prior, skipped: [], repeated: true };
    }
    if (!cfg || cfg.archived) throw voucherErrors.configNotFound();
    if (!cfg.enabled) throw voucherErrors.configDisabled();
    const expiresAt = voucherExpiry(cfg, now);
    if (!expiresAt || expiresAt <= now) throw voucherErrors.configEnded();
    // Recorded as confined: the history shows whom it really reached.
    const target = confine(input.target, scope ?? cfg.tenantId);
    const row = await distributions.insertDistribution({
      requestId: input.requestId,
      configId: cfg.id,
      target,
      remark: input.remark,
      adminId: actor.adminId || null,
      createdAt: now,
    });
    if (!row) throw voucherErrors.requestReused();
    const { users, skipped: unreached } = await resolveTargets(tx, target, scope);
    const held = await repo.heldOfConfig(
      cfg.id,
      users.map((u) => u.userId),
    );
    const skipped = [...unreached, ...atLimit(users, held, cfg.perUserLimit)];
    const eligible = users.filter((u) => (held.get(u.userId) ?? 0) < cfg.perUserLimit);
    const issued = await repo.insertVouchers(
      eligible.map((u) => ({
        tenantId: u.tenantId,
        userId: u.userId,
        configId: cfg.id,
        distributionId: row.id,
        code: voucherCode(),
        name: cfg.name,
        description: cfg.description,
        amount: cfg.faceAmount,
        remaining: cfg.faceAmount,
        minOrderAmount: cfg.minOrderAmount,
        regionId: cfg.regionId,
        gpuModel: cfg.gpuModel,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await distributions.insertItems(
      issued.map((v) => ({ distributionId: row.id, userId: v.userId, voucherId: v.id })),
    );
    await distributions.setDistributionCounts(row.id, users.length, issued.length);
    await recordAudit(tx, actor, 'voucher-distribution.execute', `voucher-distribution:${row.id}`, {
      configId: cfg.id,
      target,
      targetCount: users.length,
      issuedCount: issued.length,
      skipped,
    });
    return {
      row: { ...row, targetCount: users.length, issuedCount: issued.length },
      skipped,
      repeated: false,
    };
  });
  const view = toView(out.row, await createDistributionRepository(deps).configName(out.row.configId));
  return { distribution: { ...view, skipped: out.skipped }, repeated: out.repeated };
}

function toView(d: DistributionRow, configName: string): DistributionView {
  return {
    id: d.id,
    requestId: d.requestId,
    configId: d.configId,
    configName,
    target: d.target,
    targetCount: d.targetCount,
    issuedCount: d.issuedCount,
    remark: d.remark,
    adminId: d.adminId,
    createdAt: d.createdAt.toISOString(),
  };
}

/** A tenant operator (`scope`) sees the distributions of its own configs only. */
export async function distributionHistory(
  { db }: DistributionDeps,
  q: DistributionListQuery,
  scope: Scope,
): Promise<Page<DistributionView>> {
  const { rows, total } = await createDistributionRepository({ db }).listDistributions(
    { configId: q.configId, tenantId: scope },
    q,
  );
  return { list: rows.map((r) => toView(r.d, r.configName)), total, page: q.page, size: q.size };
}

export async function distributionDetail(
  { db }: DistributionDeps,
  id: number,
  scope: Scope,
): Promise<DistributionDetail> {
  const repo = createDistributionRepository({ db });
  const d = await repo.findDistribution({ id });
  if (!d) throw voucherErrors.distributionNotFound();
  if (scope !== null && !(await createVouchersRepository({ db }).findConfig(d.configId, { tenantId: scope })))
    throw voucherErrors.distributionNotFound();
  return { ...toView(d, await repo.configName(d.configId)), items: await repo.distributionItems(id) };
}
