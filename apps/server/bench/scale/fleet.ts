import { DEMO_IMAGES } from '../../src/modules/system/demo-data.ts';
import {
  at,
  BUSY_GPUS,
  intArray,
  lit,
  PER,
  SCALE,
  SCALE_MODELS,
  type SeedContext,
  textArray,
  UNITS,
  WHALE,
} from './plan.ts';

/**
 * SQL of the fleet, one statement per index range (h = host index; the whale's host is index
 * SCALE.hosts). Ids are the context's reserved bases plus the index, so every row is derived from
 * its index alone; each chunk commits with its progress mark (seed.ts), so a re-run after a crash
 * goes on after the last chunk (these small tables also skip rows already there).
 */

/** Running instance index r sits on host r / 20 in slot r % 20; the whale's in slots 0–7 of its host. */
export const runningId = (ctx: SeedContext, h: string, s: string) =>
  `(case when (${h}) >= ${SCALE.hosts} then ${whaleRunningBase(ctx)} + (${s}) else ${ctx.base.instances} + (${h}) * ${PER.runningPerHost} + (${s}) end)`;
export const releasedBase = (ctx: SeedContext) => ctx.base.instances + SCALE.runningInstances;
export const whaleRunningBase = (ctx: SeedContext) => releasedBase(ctx) + SCALE.releasedInstances;
export const whaleReleasedBase = (ctx: SeedContext) => whaleRunningBase(ctx) + WHALE.running;

const models = {
  name: (m: string) => `${textArray(SCALE_MODELS.map((x) => x[0]))}[${m} + 1]`,
  brand: (m: string) => `${textArray(SCALE_MODELS.map((x) => x[1]))}[${m} + 1]`,
  memory: (m: string) => `${intArray(SCALE_MODELS.map((x) => x[2]))}[${m} + 1]`,
  price: (m: string) =>
    `(array[${SCALE_MODELS.map((x) => Math.round(x[3] * 10_000)).join(',')}]::bigint[])[${m} + 1]`,
};
/** Host h's GPU model index, region id, busy GPU count and hourly price of one GPU. */
export const hostModel = (h: string) => `((${h}) % ${SCALE.gpuModels})`;
export const hostRegion = (ctx: SeedContext, h: string) =>
  `${intArray(ctx.regionIds)}[((${h}) / ${SCALE.gpuModels}) % ${ctx.regionIds.length} + 1]`;
export const hostBusy = (h: string) =>
  `(case when (${h}) >= ${SCALE.hosts} then ${WHALE.running} else ${intArray(BUSY_GPUS)}[(${h}) % 10 + 1] end)`;
export const modelName = (h: string) => models.name(hostModel(h));
export const modelMemory = (h: string) => models.memory(hostModel(h));
export const hostPrice = (h: string) => models.price(hostModel(h));
export const hostId = (ctx: SeedContext, h: string) => `(${ctx.base.hosts} + (${h}))`;
export const skuId = (ctx: SeedContext, h: string) => `(${ctx.base.gpu_skus} + (${h}))`;
export const userId = (ctx: SeedContext, u: string) => `(${ctx.base.users} + (${u}))`;
export const whaleUserId = (ctx: SeedContext) => ctx.base.users + SCALE.users;
export const tenantOf = (ctx: SeedContext, u: string) => `${intArray(ctx.tenantIds)}[(${u}) % 3 + 1]`;
export const IMAGE = DEMO_IMAGES[0]?.imageUrl ?? 'registry.gpu.local/pytorch:2.5.1';
const PORT_START = 40_000;

export function hostsSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  return `
    insert into hosts (id, region_id, name, driver, status, public_address, settings, cpu_model, cpu_cores,
      memory_gb, system_disk_gb, data_disk_gb, port_range_start, port_range_end, nvidia_driver, cuda_version,
      last_probe_at, last_probe_ok, engine_version, gpu_source, created_at, updated_at)
    select ${hostId(ctx, 'h')}, ${hostRegion(ctx, 'h')},
      case when h >= ${SCALE.hosts} then 'sc-whale' else 'sc-' || lpad(h::text, 4, '0') end,
      'simulated', 'ACTIVE', '10.' || (100 + h / 250) || '.' || (h % 250) || '.11',
      '{"latencyMs": 50, "failureRate": 0}'::jsonb, 'AMD EPYC 7763 64-Core', 128, 1024, 50, 4000,
      ${PORT_START}, ${PORT_START + SCALE.portsPerHost - 1},
      case when ${models.brand(hostModel('h'))} = 'NVIDIA' then '550.127.05' else '' end,
      case when ${models.brand(hostModel('h'))} = 'NVIDIA' then '12.4' else '' end,
      ${A}, true, 'simulated', 'simulated', ${A} - interval '400 days', ${A}
    from generate_series(${lo}, ${hi - 1}) h
    on conflict do nothing`;
}

export function skusSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  return `
    insert into gpu_skus (id, host_id, gpu_model, gpu_brand, memory_gb, cpu_per_gpu, memory_per_gpu_gb,
      system_disk_gb, data_disk_gb, hourly_price, listed, created_at, updated_at)
    select ${skuId(ctx, 'h')}, ${hostId(ctx, 'h')}, ${modelName('h')}, ${models.brand(hostModel('h'))},
      ${modelMemory('h')}, 16, 128, 30, 50, ${hostPrice('h')}, true, ${A} - interval '400 days', ${A}
    from generate_series(${lo}, ${hi - 1}) h
    on conflict do nothing`;
}

/** GPU g is index g % 8 of host g / 8; the first `busy` of a host are held by its running instances. */
export function gpusSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  return `
    insert into host_gpus (id, host_id, index, uuid, model, memory_gb, instance_id, created_at, updated_at)
    select ${ctx.base.host_gpus} + g, ${hostId(ctx, 'h')}, k,
      'GPU-' || lpad(to_hex(${hostId(ctx, 'h')}), 6, '0') || '-' || k || '-scale', ${modelName('h')}, ${modelMemory('h')},
      case when k < ${hostBusy('h')} then ${runningId(ctx, 'h', 'k')} end, ${A} - interval '400 days', ${A}
    from (select g, g / ${SCALE.gpusPerHost} as h, g % ${SCALE.gpusPerHost} as k
          from generate_series(${lo}, ${hi - 1}) g) x
    on conflict do nothing`;
}

/** Port q is port PORT_START + q % 200 of host q / 200; slot s holds ports 2s (SSH) and 2s + 1. */
export function portsSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  const slots = `(case when h >= ${SCALE.hosts} then ${WHALE.running} else ${PER.runningPerHost} end)`;
  return `
    insert into host_ports (host_id, port, instance_id, created_at)
    select ${hostId(ctx, 'h')}, ${PORT_START} + p,
      case when p / 2 < ${slots} then ${runningId(ctx, 'h', 'p / 2')} end, ${A} - interval '400 days'
    from (select q / ${SCALE.portsPerHost} as h, q % ${SCALE.portsPerHost} as p
          from generate_series(${lo}, ${hi - 1}) q) x
    on conflict do nothing`;
}

/**
 * Running instance r (host r / 20, slot s = r % 20): slots below the host's busy count hold GPU s,
 * pay-as-you-go except every fourth (a daily package); the rest run in no-GPU mode, since 20,000
 * running instances cannot all hold one of 8,000 GPUs. Charged up to the anchor, so the first
 * metering tick charges only what accrued since. `rows` yields r, h, s, u (owner index).
 */
export function runningSql(ctx: SeedContext, rows: string) {
  const A = at(ctx);
  const gpu = `s < ${hostBusy('h')}`;
  const hours = `((r * 7) % 720 + 1)`;
  const rate = `case when ${gpu} then ${hostPrice('h')} else ${UNITS.noGpuRate} end`;
  return `
    insert into instances (id, tenant_id, user_id, host_id, sku_id, region_id, name, image, gpu_model, gpu_count,
      gpu_indices, billing_type, hourly_rate, nogpu_rate, package_unit_price, duration, status, container_id,
      ssh_port, jupyter_port, root_password_enc, jupyter_token_enc, charged, running_since, expires_at,
      created_at, updated_at)
    select ${runningId(ctx, 'h', 's')}, ${tenantOf(ctx, 'u')}, uid, ${hostId(ctx, 'h')}, ${skuId(ctx, 'h')},
      ${hostRegion(ctx, 'h')}, 'train-' || r, ${lit(IMAGE)}, ${modelName('h')}, 1,
      case when ${gpu} then jsonb_build_array(s) else '[]'::jsonb end,
      case when ${gpu} and s % 4 = 3 then 'daily' else 'hourly' end, ${hostPrice('h')},
      case when ${gpu} then null else ${UNITS.noGpuRate} end,
      case when ${gpu} and s % 4 = 3 then ${hostPrice('h')} * 24 end, 1, 'RUNNING',
      'scale-' || ${runningId(ctx, 'h', 's')}, ${PORT_START} + 2 * s, ${PORT_START} + 2 * s + 1,
      ${lit(ctx.sealedPassword)}, ${lit(ctx.sealedToken)},
      case when ${gpu} and s % 4 = 3 then ${hostPrice('h')} * 24
           else (${rate}) * ${hours} / ${UNITS.fen} * ${UNITS.fen} end,
      ${A} - ${hours} * interval '1 hour',
      case when ${gpu} and s % 4 = 3 then ${A} + (r % 30 + 1) * interval '1 day' end,
      ${A} - ${hours} * interval '1 hour', ${A}
    from (${rows}) x
    on conflict do nothing`;
}

export const runningRows = (ctx: SeedContext, lo: number, hi: number) => `
  select r, r / ${PER.runningPerHost} as h, r % ${PER.runningPerHost} as s,
    r * ${PER.usersPerRunning} + r % ${PER.usersPerRunning} as u,
    ${userId(ctx, `r * ${PER.usersPerRunning} + r % ${PER.usersPerRunning}`)} as uid
  from generate_series(${lo}, ${hi - 1}) r`;

/** The simulated driver's container of each running instance (so inspect finds it). */
export function containersSql(ctx: SeedContext, rows: string) {
  const A = at(ctx);
  const id = runningId(ctx, 'h', 's');
  return `
    insert into simulated_containers (id, host_id, name, image, state, labels, env_keys, gpu_indices, ports,
      cpus, memory_gb, disk_gb, started_at, created_at, updated_at)
    select 'scale-' || ${id}, ${hostId(ctx, 'h')}, 'gpu-inst-' || ${id}, ${lit(IMAGE)}, 'running',
      jsonb_build_object('io.gpu-platform.managed', 'true', 'io.gpu-platform.instance-id', (${id})::text,
        'io.gpu-platform.host-id', (${hostId(ctx, 'h')})::text, 'io.gpu-platform.user-id', uid::text),
      '["ROOT_PASSWORD"]'::jsonb,
      case when s < ${hostBusy('h')} then jsonb_build_array(s) else '[]'::jsonb end,
      jsonb_build_array(
        jsonb_build_object('containerPort', 22, 'hostPort', ${PORT_START} + 2 * s, 'hostIp', '0.0.0.0'),
        jsonb_build_object('containerPort', 8888, 'hostPort', ${PORT_START} + 2 * s + 1, 'hostIp', '0.0.0.0')),
      16, 128, 80, ${A} - ((r * 7) % 720 + 1) * interval '1 hour', ${A} - ((r * 7) % 720 + 1) * interval '1 hour', ${A}
    from (${rows}) x
    on conflict do nothing`;
}
