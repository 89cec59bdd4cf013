import { randomBytes, randomInt } from 'node:crypto';
import { type HostDetail, type HostView, SECRET_MASK, unitsToYuan } from '@gpu/shared';
import type { SecretBox } from '../../platform/secret-box.ts';
import type { GpuWithState, HostListRow, SkuRow } from './hosts.repository.ts';

type Settings = Record<string, unknown>;
const isObject = (v: unknown): v is Settings => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of secrets inside host settings (docker TLS key, SSH key and password). */
const SECRET_PATHS = [
  ['tls', 'key'],
  ['ssh', 'privateKey'],
  ['ssh', 'password'],
] as const;

/** Settings as admins read them: secrets replaced by the mask. */
export function redactSettings(settings: Settings): Settings {
  const out: Settings = structuredClone(settings);
  for (const [outer, inner] of SECRET_PATHS) {
    const o = out[outer];
    if (isObject(o) && typeof o[inner] === 'string' && o[inner]) o[inner] = SECRET_MASK;
  }
  return out;
}

/** New settings from an admin: a secret sent back as the mask keeps the stored one. */
export function keepMaskedSecrets(next: Settings, previous: Settings): Settings {
  const out: Settings = structuredClone(next);
  for (const [outer, inner] of SECRET_PATHS) {
    const o = out[outer];
    const p = previous[outer];
    if (isObject(o) && o[inner] === SECRET_MASK) {
      if (isObject(p) && typeof p[inner] === 'string') o[inner] = p[inner];
      else delete o[inner];
    }
  }
  return out;
}

/** A copy of the settings with `fn` applied to every secret string in them. */
function mapSecrets(settings: Settings, fn: (value: string) => string): Settings {
  const out: Settings = structuredClone(settings);
  for (const [outer, inner] of SECRET_PATHS) {
    const o = out[outer];
    if (isObject(o) && typeof o[inner] === 'string' && o[inner]) o[inner] = fn(o[inner]);
  }
  return out;
}

type Box = Pick<SecretBox, 'seal' | 'open' | 'isSealed' | 'isCurrent'>;

/** Settings an admin sent, as stored: every secret sealed (the mask stays, to be resolved). */
export const sealNewSecrets = (settings: Settings, box: Box): Settings =>
  mapSecrets(settings, (v) => (v === SECRET_MASK ? v : box.seal(v)));

/** Settings as a driver uses them when it connects: sealed secrets opened. */
export const openSecrets = (settings: Settings, box: Box | undefined): Settings =>
  box ? mapSecrets(settings, (v) => (box.isSealed(v) ? box.open(v) : v)) : settings;

/**
 * Stored settings under the current key: a plain secret (stored before secrets were sealed) is
 * sealed, one sealed under a previous APP_SECRET is sealed again. Throws when one does not open.
 */
export const resealSecrets = (settings: Settings, box: Box): Settings =>
  mapSecrets(settings, (v) =>
    !box.isSealed(v) ? box.seal(v) : box.isCurrent(v) ? v : box.seal(box.open(v)),
  );

export function toSkuView(s: SkuRow) {
  return {
    id: s.id,
    gpuModel: s.gpuModel,
    gpuBrand: s.gpuBrand,
    memoryGb: s.memoryGb,
    cpuPerGpu: s.cpuPerGpu,
    memoryPerGpuGb: s.memoryPerGpuGb,
    systemDiskGb: s.systemDiskGb,
    dataDiskGb: s.dataDiskGb,
    hourlyPrice: unitsToYuan(s.hourlyPrice),
    listed: s.listed,
  };
}

export function toHostView(h: HostListRow): HostView {
  return {
    id: h.id,
    name: h.name,
    regionId: h.regionId,
    regionName: h.regionName,
    driver: h.driver,
    status: h.status,
    publicAddress: h.publicAddress,
    settings: redactSettings(h.settings),
    cpuModel: h.cpuModel,
    cpuCores: h.cpuCores,
    memoryGb: h.memoryGb,
    systemDiskGb: h.systemDiskGb,
    dataDiskGb: h.dataDiskGb,
    portRangeStart: h.portRangeStart,
    portRangeEnd: h.portRangeEnd,
    nvidiaDriver: h.nvidiaDriver,
    cudaVersion: h.cudaVersion,
    engineVersion: h.engineVersion,
    nvidiaRuntime: h.nvidiaRuntime,
    diskLimitSupported: h.diskLimitSupported,
    gpuSource: h.gpuSource,
    lastProbeAt: h.lastProbeAt?.toISOString() ?? null,
    lastProbeOk: h.lastProbeOk,
    lastProbeError: h.lastProbeError,
    gpuTotal: h.gpuTotal,
    gpuIdle: h.gpuIdle,
    gpuAllocated: h.gpuAllocated,
    gpuReserved: h.gpuReserved,
    portTotal: h.portTotal,
    portAllocated: h.portAllocated,
    skus: h.skus.map(toSkuView),
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}

export function toHostDetail(h: HostListRow, gpus: GpuWithState[]): HostDetail {
  return {
    ...toHostView(h),
    gpus: gpus.map((g) => ({
      index: g.index,
      uuid: g.uuid,
      model: g.model,
      memoryGb: g.memoryGb,
      instanceId: g.instanceId,
      reservedReason: g.reservedReason,
      state: g.state,
    })),
  };
}

/**
 * GPU availability of SPEC.md §7: ids below `totalGpu` (all when absent); free = idle by the one
 * definition (`gpuState`), used = occupied or reserved.
 */
export function gpuAvailability(gpus: Pick<GpuWithState, 'index' | 'state'>[], totalGpu?: number) {
  const considered = gpus.filter((g) => totalGpu === undefined || g.index < totalGpu);
  const usedIds = considered.filter((g) => g.state !== 'idle').map((g) => g.index);
  const freeIds = considered.filter((g) => g.state === 'idle').map((g) => g.index);
  return { total: considered.length, free: freeIds.length, freeIds, usedIds };
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A root password for a new instance: 16 characters, no look-alikes (0/O, 1/l/I). */
export function generateRootPassword(length = 16): string {
  return Array.from({ length }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');
}

/** JupyterLab's token for a new instance: 48 hex digits (192 bits), apart from the root password. */
export function generateJupyterToken(): string {
  return randomBytes(24).toString('hex');
}
