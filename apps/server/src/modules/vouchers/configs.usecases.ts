import {
  type AdminActor,
  type Page,
  type VoucherConfigInput,
  type VoucherConfigListQuery,
  type VoucherConfigView,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { voucherErrors } from './vouchers.errors.ts';
import { toConfigView } from './vouchers.models.ts';
import { createVouchersRepository, type VoucherConfigRow } from './vouchers.repository.ts';

export interface ConfigDeps {
  db: Db;
  now: Now;
}

const target = (id: number) => `voucher-config:${id}` as const;

/** A tenant operator's tenant (issue 29): it sees and changes only its own configs; null: all. */
type Scope = number | null;

function columns(input: VoucherConfigInput, now: Date) {
  return {
    name: input.name,
    description: input.description,
    faceAmount: yuanToUnits(input.faceAmount),
    validDays: input.validDays ?? null,
    validUntil: input.validUntil ? new Date(input.validUntil) : null,
    regionId: input.regionId ?? null,
    gpuModel: input.gpuType || null,
    minOrderAmount: yuanToUnits(input.minOrderAmount),
    perUserLimit: input.perUserLimit,
    enabled: input.enabled,
    updatedAt: now,
  };
}

async function view(db: Db, row: VoucherConfigRow): Promise<VoucherConfigView> {
  const [full] = (await createVouchersRepository({ db }).listConfigs({ id: row.id }, { page: 1, size: 1 }))
    .rows;
  return toConfigView(full ?? { ...row, regionName: null, issuedCount: 0 });
}

export async function listConfigs(
  { db }: ConfigDeps,
  q: VoucherConfigListQuery,
  scope: Scope,
): Promise<Page<VoucherConfigView>> {
  const { rows, total } = await createVouchersRepository({ db }).listConfigs(
    {
      keyword: q.keyword,
      enabled: q.enabled === undefined ? undefined : q.enabled === 'true',
      tenantId: scope,
    },
    q,
  );
  return { list: rows.map(toConfigView), total, page: q.page, size: q.size };
}

/** A tenant operator's config belongs to its tenant; a platform administrator's to none. */
export async function createConfig(
  deps: ConfigDeps,
  actor: AdminActor,
  input: VoucherConfigInput,
  scope: Scope,
) {
  const row = await deps.db.transaction(async (tx) => {
    const repo = createVouchersRepository({ db: tx });
    if (input.regionId && !(await repo.regionExists(input.regionId))) throw voucherErrors.regionNotFound();
    const created = await repo.insertConfig({ ...columns(input, deps.now()), tenantId: scope });
    if (!created) throw new Error('voucher config insert returned nothing');
    await recordAudit(tx, actor, 'voucher-config.create', target(created.id), { after: created });
    return created;
  });
  return view(deps.db, row);
}

/** Edits apply to vouchers issued later; those already issued keep their copied terms. */
export async function updateConfig(
  deps: ConfigDeps,
  actor: AdminActor,
  id: number,
  input: VoucherConfigInput,
  scope: Scope,
) {
  const row = await deps.db.transaction(async (tx) => {
    const repo = createVouchersRepository({ db: tx });
    const before = await repo.findConfig(id, { lock: true, tenantId: scope });
    if (!before || before.archived) throw voucherErrors.configNotFound();
    if (input.regionId && !(await repo.regionExists(input.regionId))) throw voucherErrors.regionNotFound();
    const after = await repo.updateConfig(id, columns(input, deps.now()));
    await recordAudit(tx, actor, 'voucher-config.update', target(id), { before, after });
    return after ?? before;
  });
  return view(deps.db, row);
}

export async function toggleConfig(deps: ConfigDeps, actor: AdminActor, id: number, scope: Scope) {
  const row = await deps.db.transaction(async (tx) => {
    const repo = createVouchersRepository({ db: tx });
    const before = await repo.findConfig(id, { lock: true, tenantId: scope });
    if (!before || before.archived) throw voucherErrors.configNotFound();
    const after = await repo.updateConfig(id, { enabled: !before.enabled, updatedAt: deps.now() });
    await recordAudit(tx, actor, 'voucher-config.toggle', target(id), {
      before: { enabled: before.enabled },
      after: { enabled: after?.enabled },
    });
    return after ?? before;
  });
  return view(deps.db, row);
}

/**
 * Deleting is refused once vouchers were issued from it (they refer to it); `archive` then
 * hides it from the list and from distribution instead.
 */
export async function deleteConfig(
  deps: ConfigDeps,
  actor: AdminActor,
  id: number,
  archive: boolean,
  scope: Scope,
) {
  await deps.db.transaction(async (tx) => {
    const repo = createVouchersRepository({ db: tx });
    const before = await repo.findConfig(id, { lock: true, tenantId: scope });
    if (!before || before.archived) throw voucherErrors.configNotFound();
    const issued = await repo.issuedOfConfig(id);
    if (issued > 0 && !archive) throw voucherErrors.configIssued(issued);
    if (issued > 0) {
      await repo.updateConfig(id, { archived: true, enabled: false, updatedAt: deps.now() });
      await recordAudit(tx, actor, 'voucher-config.archive', target(id), { before, issued });
    } else {
      await repo.deleteConfig(id);
      await recordAudit(tx, actor, 'voucher-config.delete', target(id), { before });
    }
  });
  return { archived: archive };
}
