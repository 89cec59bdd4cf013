import { randomUUID } from 'node:crypto';
import {
  type AdminActor,
  type AdminTenant,
  type TenantCreateInput,
  type TenantPriceInput,
  type TenantPriceRow,
  type TenantUpdateInput,
  UPLOAD_MAX_BYTES,
  unitsToYuan,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { recordAudit } from '../audit/index.ts';
import type { TenantSettings } from '../tenants/tenants.tables.ts';
import { tenantAdminErrors } from './tenant-admin.errors.ts';
import { checkOperatorInput } from './tenant-admin.models.ts';
import { createTenantsAdminRepository, type TenantRow } from './tenant-admin.repository.ts';

/**
 * The back office's tenant writes. Each commits with its audit row and a bump of the tenant
 * version (so every replica's tenant cache reloads); `changed` then drops this process's tenant
 * and market caches.
 */
export interface TenantAdminDeps {
  db: Db;
  now: Now;
  changed: () => void;
}

const toAdminTenant = (
  t: TenantRow,
  extra: { domains: string[]; hostCount: number; priceCount: number },
): AdminTenant => ({
  id: t.id,
  code: t.code,
  name: t.name,
  status: t.status,
  isDefault: t.isDefault,
  domains: extra.domains,
  config: t.config as unknown as Record<string, unknown>,
  hostCount: Number(extra.hostCount),
  priceCount: Number(extra.priceCount),
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

/**
 * A tenant operator's tenant (issue 29): it sees and changes only its own tenant (any other is
 * "not found"); null: a platform administrator.
 */
type Scope = number | null;

export async function listTenants({ db }: { db: Db }, scope: Scope): Promise<AdminTenant[]> {
  const rows = await createTenantsAdminRepository({ db }).list(scope);
  return rows.map((r) => toAdminTenant(r.tenant, r));
}

export async function getTenant(
  { db }: { db: Db | Tx },
  id: number,
  scope: Scope = null,
): Promise<AdminTenant> {
  const row = (await createTenantsAdminRepository({ db }).list(scope)).find((r) => r.tenant.id === id);
  if (!row) throw tenantAdminErrors.notFound();
  return toAdminTenant(row.tenant, row);
}

async function checkRefs(
  repo: ReturnType<typeof createTenantsAdminRepository>,
  id: number | null,
  input: TenantUpdateInput,
) {
  if (input.domains) {
    const taken = await repo.domainsTakenByOthers(input.domains, id);
    if (taken.length) throw tenantAdminErrors.domainsTaken(taken);
  }
  const regionIds = input.config?.visibleRegionResources ?? [];
  const found = new Set(await repo.existingRegionIds(regionIds));
  const missing = regionIds.filter((r) => !found.has(r));
  if (missing.length) throw tenantAdminErrors.unknownRegions(missing);
}

export async function createTenant(deps: TenantAdminDeps, actor: AdminActor, input: TenantCreateInput) {
  try {
    const id = await deps.db.transaction(async (tx) => {
      const repo = createTenantsAdminRepository({ db: tx });
      if (await repo.findByCode(input.code)) throw tenantAdminErrors.codeTaken(input.code);
      await checkRefs(repo, null, input);
      const row = await repo.insert({
        code: input.code,
        name: input.name,
        status: input.status,
        config: input.config as TenantSettings,
      });
      await repo.replaceDomains(row.id, input.domains);
      await repo.bumpVersion();
      await recordAudit(tx, actor, 'tenants.create', `tenant:${row.id}`, { after: input });
      return row.id;
    });
    deps.changed();
    return getTenant(deps, id);
  } catch (e) {
    if (isUniqueViolation(e)) throw tenantAdminErrors.codeTaken(input.code);
    throw e;
  }
}

export async function updateTenant(
  deps: TenantAdminDeps,
  actor: AdminActor,
  id: number,
  asked: TenantUpdateInput,
  scope: Scope,
) {
  let input = asked;
  try {
    await deps.db.transaction(async (tx) => {
      const repo = createTenantsAdminRepository({ db: tx });
      const before = await repo.find(id, scope);
      if (!before) throw tenantAdminErrors.notFound();
      if (scope !== null) input = checkOperatorInput(before, await repo.domainsOf(id), asked);
      if (input.code && input.code !== before.code && (await repo.findByCode(input.code)))
        throw tenantAdminErrors.codeTaken(input.code);
      if (before.isDefault && input.status === 'DISABLED') throw tenantAdminErrors.defaultCannotBeDisabled();
      await checkRefs(repo, id, input);
      const domainsBefore = await repo.domainsOf(id);
      const { domains, config, ...columns } = input;
      const after = await repo.update(id, {
        ...columns,
        ...(config ? { config: config as TenantSettings } : {}),
        updatedAt: deps.now(),
      });
      if (domains) await repo.replaceDomains(id, domains);
      await repo.bumpVersion();
      await recordAudit(tx, actor, 'tenants.update', `tenant:${id}`, {
        before: { ...before, domains: domainsBefore },
        after: { ...after, domains: domains ?? domainsBefore },
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw tenantAdminErrors.codeTaken(input.code ?? '');
    throw e;
  }
  deps.changed();
  return getTenant(deps, id);
}

// ---- host grants ----

export async function tenantHosts({ db }: { db: Db }, tenantId: number) {
  const repo = createTenantsAdminRepository({ db });
  if (!(await repo.find(tenantId))) throw tenantAdminErrors.notFound();
  return { tenantId, hostIds: await repo.hostIdsOf(tenantId) };
}

/** Replaces the hosts a tenant sells; an empty list means every host of its visible regions. */
export async function setTenantHosts(
  deps: TenantAdminDeps,
  actor: AdminActor,
  tenantId: number,
  hostIds: number[],
) {
  await deps.db.transaction(async (tx) => {
    const repo = createTenantsAdminRepository({ db: tx });
    if (!(await repo.find(tenantId))) throw tenantAdminErrors.notFound();
    const found = new Set(await repo.existingHostIds(hostIds));
    const missing = hostIds.filter((h) => !found.has(h));
    if (missing.length) throw tenantAdminErrors.unknownHosts(missing);
    const before = await repo.hostIdsOf(tenantId);
    await repo.replaceHosts(tenantId, hostIds);
    await recordAudit(tx, actor, 'tenants.hosts', `tenant:${tenantId}`, { before, after: hostIds });
  });
  deps.changed();
  return tenantHosts(deps, tenantId);
}

// ---- tenant prices ----

const yuanOrNull = (v: number | null) => (v === null ? null : unitsToYuan(v));
const unitsOrNull = (v: number | null) => (v === null ? null : yuanToUnits(v));

export async function tenantPrices(
  { db }: { db: Db },
  tenantId: number,
  scope: Scope = null,
): Promise<TenantPriceRow[]> {
  const repo = createTenantsAdminRepository({ db });
  if (!(await repo.find(tenantId, scope))) throw tenantAdminErrors.notFound();
  const rows = await repo.prices(tenantId);
  return rows.map((r) => ({
    ...r,
    basePrice: unitsToYuan(r.basePrice),
    hourlyPrice: yuanOrNull(r.hourlyPrice),
    dailyPrice: yuanOrNull(r.dailyPrice),
    weeklyPrice: yuanOrNull(r.weeklyPrice),
    monthlyPrice: yuanOrNull(r.monthlyPrice),
  }));
}

export async function setTenantPrice(
  deps: TenantAdminDeps,
  actor: AdminActor,
  tenantId: number,
  skuId: number,
  input: TenantPriceInput,
  scope: Scope,
) {
  await deps.db.transaction(async (tx) => {
    const repo = createTenantsAdminRepository({ db: tx });
    if (!(await repo.find(tenantId, scope))) throw tenantAdminErrors.notFound();
    if (!(await repo.skuExists(skuId))) throw tenantAdminErrors.skuNotFound();
    const before = (await repo.findPrice(tenantId, skuId)) ?? null;
    const row = {
      tenantId,
      skuId,
      hourlyPrice: yuanToUnits(input.hourlyPrice),
      dailyPrice: unitsOrNull(input.dailyPrice),
      weeklyPrice: unitsOrNull(input.weeklyPrice),
      monthlyPrice: unitsOrNull(input.monthlyPrice),
    };
    await repo.upsertPrice(row, deps.now());
    await recordAudit(tx, actor, 'tenants.price', `tenant:${tenantId}`, { skuId, before, after: row });
  });
  deps.changed();
  const found = (await tenantPrices(deps, tenantId)).find((p) => p.skuId === skuId);
  if (!found) throw tenantAdminErrors.skuNotFound();
  return found;
}

export async function deleteTenantPrice(
  deps: TenantAdminDeps,
  actor: AdminActor,
  tenantId: number,
  skuId: number,
  scope: Scope,
) {
  await deps.db.transaction(async (tx) => {
    const repo = createTenantsAdminRepository({ db: tx });
    if (!(await repo.find(tenantId, scope))) throw tenantAdminErrors.notFound();
    const before = await repo.findPrice(tenantId, skuId);
    if (!before) throw tenantAdminErrors.priceNotFound();
    await repo.deletePrice(tenantId, skuId);
    await recordAudit(tx, actor, 'tenants.price_delete', `tenant:${tenantId}`, { skuId, before });
  });
  deps.changed();
}

// ---- uploads ----

/** The first bytes of each allowed type: the declared type must match the content. */
const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/x-icon': (b) => b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0,
};

export async function uploadImage(deps: TenantAdminDeps, actor: AdminActor, dataUrl: string) {
  const comma = dataUrl.indexOf(',');
  const contentType = dataUrl.slice(5, dataUrl.indexOf(';'));
  const data = dataUrl.slice(comma + 1);
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > UPLOAD_MAX_BYTES) throw tenantAdminErrors.imageTooLarge();
  if (bytes.length < 4 || !MAGIC[contentType]?.(bytes)) throw tenantAdminErrors.badImage();
  const id = randomUUID();
  await deps.db.transaction(async (tx) => {
    await createTenantsAdminRepository({ db: tx }).insertFile({ id, contentType, data, size: bytes.length });
    await recordAudit(tx, actor, 'files.upload', `file:${id}`, { contentType, size: bytes.length });
  });
  return { url: `/api/files/${id}`, contentType, size: bytes.length };
}

export async function readFile({ db }: { db: Db }, id: string) {
  const row = await createTenantsAdminRepository({ db }).findFile(id);
  if (!row) throw tenantAdminErrors.fileNotFound();
  return { contentType: row.contentType, bytes: Buffer.from(row.data, 'base64') };
}
