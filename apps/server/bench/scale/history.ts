import {
  hostBusy,
  hostId,
  hostPrice,
  hostRegion,
  IMAGE,
  modelName,
  releasedBase,
  runningId,
  skuId,
  tenantOf,
  userId,
} from './fleet.ts';
import { at, lit, PER, SCALE, type SeedContext, UNITS, WHALE } from './plan.ts';

/**
 * Released instances, instance events and bill lines. A regular user u owns released instances
 * 2u and 2u + 1 (the first half-year's and the second's), on host i / 200; a bill line of user u
 * (b = 0…99) is on instance 2u + b / 50. `rows` sub-selects name their columns below.
 */

/** rows: id, h, u, uid, n (name number), created (timestamptz). Lived 180 days (or until an hour ago), then released. */
export function releasedSql(ctx: SeedContext, rows: string) {
  return `
    insert into instances (id, tenant_id, user_id, host_id, sku_id, region_id, name, image, gpu_model, gpu_count,
      gpu_indices, billing_type, hourly_rate, duration, status, root_password_enc, jupyter_token_enc, charged,
      stopped_at, released_at, stop_reason, created_at, updated_at)
    select id, ${tenantOf(ctx, 'u')}, uid, ${hostId(ctx, 'h')}, ${skuId(ctx, 'h')}, ${hostRegion(ctx, 'h')},
      'job-' || n, ${lit(IMAGE)}, ${modelName('h')}, 1, jsonb_build_array(n % 8), 'hourly', ${hostPrice('h')}, 1,
      'RELEASED', ${lit(ctx.sealedPassword)}, ${lit(ctx.sealedToken)}, ${UNITS.charge * 40},
      ended, ended, '用户释放', created, ended
    from (select *, least(created + interval '180 days', ${at(ctx)} - interval '1 hour') as ended from (${rows}) r) x`;
}

export const releasedRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${releasedBase(ctx)} + i as id, i / ${PER.releasedPerHost} as h, i / 2 as u,
    ${userId(ctx, 'i / 2')} as uid, i as n,
    ${at(ctx)} - interval '365 days' + (i % 2) * interval '182 days' + ((i / 2) % 1000) * interval '1 minute' as created
  from generate_series(${lo}, ${hi - 1}) i`;

/** Events of released instances: created → RUNNING, then → RELEASED (ids 2i and 2i + 1 past `base`). */
export function releasedEventsSql(instanceIdOf: string, base: number, lo: number, hi: number) {
  return `
    insert into instance_events (id, instance_id, from_status, to_status, actor, reason, created_at)
    select ${base} + 2 * i + e, inst.id, case when e = 0 then 'CREATING' else 'RUNNING' end,
      case when e = 0 then 'RUNNING' else 'RELEASED' end, 'user:' || inst.user_id,
      case when e = 1 then '用户释放' end, case when e = 0 then inst.created_at else inst.released_at end
    from generate_series(${lo}, ${hi - 1}) i
    cross join (values (0), (1)) ev(e)
    join instances inst on inst.id = ${instanceIdOf}`;
}

/** Events of running instances: created → RUNNING (id `base` + r). rows: r, h, s, uid. */
export function runningEventsSql(ctx: SeedContext, rows: string, base: number) {
  return `
    insert into instance_events (id, instance_id, from_status, to_status, actor, created_at)
    select ${base} + r, ${runningId(ctx, 'h', 's')}, 'CREATING', 'RUNNING', 'user:' || uid,
      ${at(ctx)} - ((r * 7) % 720 + 1) * interval '1 hour'
    from (${rows}) x`;
}

const billNo = (kind: string, id: string, t: string) =>
  `(case when ${kind} in ('create', 'renewal', 'refund') then 'OD' else 'BL' end
    || to_char(${t} at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(upper(to_hex(${id})), 12, '0'))`;

/**
 * Bill lines: rows name id, uid, u, inst (instance id), kind, amount, voucher, ledger (entry id or
 * null), t (period start). Orders (create, renewal) cover a day of a daily package; metering lines
 * an hour. A user's line b of 100: b < 80 are its 80 charges (every 8th an order, every 8th + 4 a
 * renewal), 80–89 its 10 refunds, 90–99 hours a voucher paid whole.
 */
export function billsSql(ctx: SeedContext, rows: string) {
  const daily = `kind in ('create', 'renewal')`;
  const hourly = `kind in ('metering', 'nogpu')`;
  return `
    insert into billing_records (id, tenant_id, user_id, instance_id, billing_type, kind, period_start, period_end,
      amount, voucher_amount, ledger_entry_id, meter_hour, hourly_rate, record_no, created_at)
    select id, ${tenantOf(ctx, 'u')}, uid, inst, case when ${daily} then 'daily' else 'hourly' end, kind,
      t, t + case when ${daily} then interval '1 day' else interval '1 hour' end, amount, voucher, ledger,
      case when ${hourly} then date_trunc('hour', t) end, case when ${hourly} then ${UNITS.charge} end,
      ${billNo('kind', 'id', 't')}, t
    from (${rows}) x
    order by t, id`;
}

/** Regular users' bill lines g (user g / 100, line b = g % 100), matched to their ledger rows. */
export const billRows = (ctx: SeedContext, lo: number, hi: number) => {
  const per = PER.billsPerUser;
  const ledgerJ = `case when b < 80 then (b / 8) * 10 + 1 + b % 8 when b < 90 then (b - 80) * 10 + 9 end`;
  // Lines 90–99 have no ledger row: a day after the charge of the same j, so never its hour.
  return `
    select ${ctx.base.billing_records} + g as id, u, ${userId(ctx, 'u')} as uid,
      ${releasedBase(ctx)} + 2 * u + b / 50 as inst,
      case when b >= 80 and b < 90 then 'refund' when b < 80 and b % 8 = 0 then 'create'
           when b < 80 and b % 8 = 4 then 'renewal' else 'metering' end as kind,
      case when b < 80 then ${UNITS.charge} when b < 90 then -${UNITS.refund} else 0 end as amount,
      case when b >= 90 then ${UNITS.charge} else 0 end as voucher,
      ${ctx.base.ledger_entries} + u * ${PER.ledgerPerUser} + ${ledgerJ} as ledger,
      ${ledgerTime(ctx, `coalesce(${ledgerJ}, b)`, PER.ledgerPerUser, 'u')}
        + case when b >= 90 then interval '1 day' else interval '0 days' end as t
    from (select g, g / ${per} as u, g % ${per} as b from generate_series(${lo}, ${hi - 1}) g) x`;
};

/** The whale's lines: first its orders (create, renewal, refund in turn), then metering hours. */
export const whaleBillRows = (
  ctx: SeedContext,
  whaleUid: number,
  instBase: number,
  lo: number,
  hi: number,
) => {
  const n = WHALE.orderLines + WHALE.meteringLines;
  return `
    select ${ctx.base.billing_records} + ${SCALE.billLines} + b as id, 0 as u, ${whaleUid} as uid,
      ${instBase} + b % ${WHALE.released} as inst,
      case when b >= ${WHALE.orderLines} then 'metering' when b % 3 = 0 then 'create'
           when b % 3 = 1 then 'renewal' else 'refund' end as kind,
      case when b < ${WHALE.orderLines} and b % 3 = 2 then -${UNITS.refund} else ${UNITS.charge} end as amount,
      0 as voucher, null::bigint as ledger,
      ${at(ctx)} - interval '365 days' + b * interval '1 second' * ${Math.floor((365 * 86_400) / n)} as t
    from generate_series(${lo}, ${hi - 1}) b`;
};

/** When ledger row j of `per` for user index u happened: spread over the year before the anchor. */
export const ledgerTime = (ctx: SeedContext, j: string, per: number, u: string) =>
  `(${at(ctx)} - interval '365 days' + (${j}) * interval '1 second' * ${Math.floor((365 * 86_400) / per)}
    + ((${u}) % 3600) * interval '1 second')`;

/** Whether host h's slot s holds a GPU (for callers that pick GPU-mode instances). */
export const holdsGpu = (h: string, s: string) => `(${s} < ${hostBusy(h)})`;
