import {
  type AdminActor,
  type AuditAction,
  dockerSettingsSchema,
  type HostCreateInput,
  type HostDetail,
  type HostDriverName,
  type HostStatusValue,
  type HostUpdateInput,
  type HostView,
  type Page,
  simulatedSettingsSchema,
} from '@gpu/shared';
import type { AggregateCache } from '../../platform/aggregate-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import type { HostNetworks } from '../../platform/host-networks.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { recordAudit } from '../audit/index.ts';
import { lockHost } from './allocation.ts';
import { checkDockerTarget } from './drivers/docker/connection.ts';
import { declaredGpuInfo } from './drivers/labels.ts';
import type { HostDriverRegistry } from './drivers/registry.ts';
import { gpuUtilization } from './gpu-states.repository.ts';
import { hostErrors } from './hosts.errors.ts';
import {
  keepMaskedSecrets,
  redactSettings,
  sealNewSecrets,
  toHostDetail,
  toHostView,
} from './hosts.models.ts';
import { createHostsRepository, type HostFilter } from './hosts.repository.ts';
import { HOST_DRIVERS } from './hosts.tables.ts';
import { createInventoryRepository } from './inventory.repository.ts';
import { syncGpuInventory } from './inventory.ts';
import { type PortPoolResult, syncPortPool } from './ports.ts';
import { upsertHostSku } from './skus.ts';

export interface HostsDeps {
  db: Db;
  clock: Clock;
  /** Host statistics, reused for a short while (platform/aggregate-cache.ts). */
  stats: AggregateCache;
  hostDrivers: HostDriverRegistry;
  /** Seals the secrets in host settings (docker TLS key, SSH key and password) before they are stored. */
  box: SecretBox;
  /** HOST_NETWORKS: where a host's settings may point. */
  hostNetworks: HostNetworks;
  log?: { warn: (obj: object, msg: string) => void };
  /**
   * Whether any instance (running or long released) was ever placed on the host, read in the
   * delete's transaction. Instances sit above hosts, so the app hands the question in.
   */
  hasHistory: (tx: Tx, hostId: number) => Promise<boolean>;
  /** Drops what shows hosts' GPUs and prices (the market, above this module) after a change. */
  changed: () => void;
}

const audit = (tx: Tx, actor: AdminActor, action: AuditAction, hostId: number, detail?: unknown) =>
  recordAudit(tx, actor, action, `host:${hostId}`, detail);

export async function listHosts(
  { db }: HostsDeps,
  q: HostFilter & { page: number; size: number },
): Promise<Page<HostView>> {
  const { rows, total } = await createHostsRepository({ db }).list(q, q);
  return { list: rows.map(toHostView), total, page: q.page, size: q.size };
}

export async function listHostsByType({ db }: HostsDeps, driver: HostDriverName): Promise<HostView[]> {
  const { rows } = await createHostsRepository({ db }).list({ driver });
  return rows.map(toHostView);
}

export async function getHost({ db }: { db: Db | Tx }, id: number): Promise<HostDetail> {
  const repo = createHostsRepository({ db });
  const [row] = (await repo.list({ ids: [id] })).rows;
  if (!row) throw hostErrors.notFound();
  return toHostDetail(row, await repo.gpus(id));
}

/** Settings checked against the host's driver; a bad field is a 400 naming it. */
function parseSettings(driver: string, settings: Record<string, unknown>): Record<string, unknown> {
  const schema =
    driver === 'docker' ? dockerSettingsSchema : driver === 'simulated' ? simulatedSettingsSchema : null;
  if (!schema) return settings;
  const parsed = schema.safeParse(settings);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw hostErrors.invalidSettings(issue?.path.join('.') || '', issue?.message ?? '格式不正确');
}

/** Refuses settings that point outside HOST_NETWORKS (checked again on every connection). */
async function checkTarget(deps: HostsDeps, driver: string, settings: Record<string, unknown>) {
  if (driver !== 'docker') return;
  const problem = await checkDockerTarget(
    settings as Parameters<typeof checkDockerTarget>[0],
    deps.hostNetworks,
  );
  if (problem) throw hostErrors.targetNotAllowed(problem.field, problem.reason);
}

export async function createHost(
  deps: HostsDeps,
  actor: AdminActor,
  input: HostCreateInput,
): Promise<HostDetail> {
  const repo = createHostsRepository({ db: deps.db });
  if (!(await repo.regionExists(input.regionId))) throw hostErrors.regionNotFound();
  if (await repo.findByName(input.name)) throw hostErrors.nameTaken(input.name);
  const { sku, settings, ...columns } = input;
  await checkTarget(deps, input.driver, settings);
  try {
    return await deps.db.transaction(async (tx) => {
      const host = await createHostsRepository({ db: tx }).insert({
        ...columns,
        settings: sealNewSecrets(settings, deps.box),
        gpuSource: input.driver === 'simulated' ? 'simulated' : 'declared',
      });
      if (!host) throw new Error('host insert returned no row');
      const gpus = declaredGpuInfo(host.id, settings.gpus, input.driver === 'simulated' ? 'sim' : 'declared');
      if (gpus.length)
        await createInventoryRepository({ db: tx }).insertGpus(gpus.map((g) => ({ ...g, hostId: host.id })));
      const ports = await syncPortPool(tx, host);
      if (sku) await upsertHostSku(tx, host, sku);
      await audit(tx, actor, 'hosts.create', host.id, {
        ...input,
        settings: redactSettings(settings),
        gpus: gpus.length,
        ports: ports.total,
      });
      return getHost({ db: tx }, host.id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw hostErrors.nameTaken(input.name);
    throw e;
  }
}

export async function updateHost(
  deps: HostsDeps,
  actor: AdminActor,
  id: number,
  input: HostUpdateInput,
): Promise<HostDetail> {
  const repo = createHostsRepository({ db: deps.db });
  if (input.regionId !== undefined && !(await repo.regionExists(input.regionId)))
    throw hostErrors.regionNotFound();
  // Validated and checked against HOST_NETWORKS before the host is locked (DNS is network I/O);
  // the target fields are not secrets, so the masked ones resolved below change nothing here.
  const stored = input.settings ? await repo.find(id) : undefined;
  if (input.settings && !stored) throw hostErrors.notFound();
  // A mask with no stored secret behind it is dropped before validating, so a required key stays required.
  const next =
    input.settings && stored
      ? parseSettings(stored.driver, keepMaskedSecrets(input.settings, redactSettings(stored.settings)))
      : undefined;
  if (next && stored) await checkTarget(deps, stored.driver, next);
  try {
    return await deps.db.transaction(async (tx) => {
      const host = await lockHost(tx, id);
      if (
        input.name &&
        input.name !== host.name &&
        (await createHostsRepository({ db: tx }).findByName(input.name))
      ) {
        throw hostErrors.nameTaken(input.name);
      }
      const { sku, settings: _raw, ...columns } = input;
      const start = columns.portRangeStart ?? host.portRangeStart;
      const end = columns.portRangeEnd ?? host.portRangeEnd;
      if (start > end) throw hostErrors.badPortRange();
      // New secrets are sealed; one sent back as the mask keeps the stored (sealed) one.
      const settings = next ? keepMaskedSecrets(sealNewSecrets(next, deps.box), host.settings) : undefined;
      const updated = await createHostsRepository({ db: tx }).update(id, {
        ...columns,
        ...(settings ? { settings } : {}),
        updatedAt: deps.clock.now(),
      });
      if (!updated) throw hostErrors.notFound();
      if (start !== host.portRangeStart || end !== host.portRangeEnd) await syncPortPool(tx, updated);
      // Declared GPUs follow the settings unless the host reports its own (nvidia-smi).
      const declared = settings?.gpus as Parameters<typeof declaredGpuInfo>[1];
      if (
        settings &&
        updated.gpuSource !== 'nvidia-smi' &&
        JSON.stringify(declared) !== JSON.stringify(host.settings.gpus)
      ) {
        await syncGpuInventory(
          tx,
          id,
          declaredGpuInfo(id, declared, host.driver === 'simulated' ? 'sim' : 'declared'),
        );
      }
      if (sku) await upsertHostSku(tx, updated, sku);
      await audit(tx, actor, 'hosts.update', id, {
        ...input,
        ...(settings ? { settings: redactSettings(settings) } : {}),
      });
      return getHost({ db: tx }, id);
    });
  } catch (e) {
    if (isUniqueViolation(e) && input.name) throw hostErrors.nameTaken(input.name);
    throw e;
  }
}

export async function setHostStatus(deps: HostsDeps, actor: AdminActor, id: number, status: HostStatusValue) {
  return deps.db.transaction(async (tx) => {
    const host = await lockHost(tx, id);
    await createHostsRepository({ db: tx }).set(id, { status, updatedAt: deps.clock.now() });
    await audit(tx, actor, 'hosts.status', id, { from: host.status, to: status });
    return getHost({ db: tx }, id);
  });
}

export async function deleteHost(deps: HostsDeps, actor: AdminActor, id: number): Promise<{ id: number }> {
  return deps.db.transaction(async (tx) => {
    const host = await lockHost(tx, id);
    const repo = createHostsRepository({ db: tx });
    const held = await repo.allocatedCounts(id);
    if (held.gpus > 0 || held.ports > 0) throw hostErrors.inUse();
    // Bills and instance history point at the host: it is taken out of use, not deleted.
    if (await deps.hasHistory(tx, id)) throw hostErrors.hasHistory();
    await repo.delete(id);
    await audit(tx, actor, 'hosts.delete', id, { name: host.name, driver: host.driver });
    return { id };
  });
}

export async function initPorts(deps: HostsDeps, actor: AdminActor, id: number): Promise<PortPoolResult> {
  return deps.db.transaction(async (tx) => {
    const host = await lockHost(tx, id);
    const result = await syncPortPool(tx, host);
    await audit(tx, actor, 'hosts.init_ports', id, {
      range: [host.portRangeStart, host.portRangeEnd],
      ...result,
    });
    return result;
  });
}

/** Figures over every host and GPU: computed at most once per ADMIN_STATS_CACHE_S (issue 33), with their time. */
export async function hostStatistics(deps: HostsDeps) {
  const figures = await deps.stats.get('host-statistics', () => computeHostStatistics(deps));
  return { ...figures.value, computedAt: figures.computedAt.toISOString() };
}

async function computeHostStatistics({ db }: HostsDeps) {
  const s = await createHostsRepository({ db }).statistics();
  const total = s.byStatus.reduce((a, r) => a + r.n, 0);
  return {
    totalHosts: total,
    byStatus: Object.fromEntries(
      ['ACTIVE', 'DISABLED', 'MAINTENANCE'].map((k) => [k, s.byStatus.find((r) => r.key === k)?.n ?? 0]),
    ),
    byDriver: Object.fromEntries(HOST_DRIVERS.map((k) => [k, s.byDriver.find((r) => r.key === k)?.n ?? 0])),
    reachableHosts: s.probe?.reachable ?? 0,
    unreachableHosts: s.probe?.unreachable ?? 0,
    neverProbedHosts: s.probe?.never ?? 0,
    totalGpus: s.gpus.total,
    idleGpus: s.gpus.idle,
    allocatedGpus: s.gpus.occupied,
    reservedGpus: s.gpus.reserved,
    gpuUtilization: gpuUtilization(s.gpus),
    totalPorts: s.ports.total,
    allocatedPorts: s.ports.allocated,
  };
}
