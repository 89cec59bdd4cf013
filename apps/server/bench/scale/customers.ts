import { releasedBase, tenantOf, userId, whaleReleasedBase, whaleUserId } from './fleet.ts';
import { ledgerTime } from './history.ts';
import {
  at,
  intArray,
  lit,
  PER,
  SCALE,
  SCALE_MODELS,
  SCALE_WHALE,
  type SeedContext,
  UNITS,
  WHALE,
} from './plan.ts';

/**
 * Customers and their money. Every user's ledger repeats one block of ten rows: a recharge of
 * ¥1,000, eight charges of ¥80, a refund of ¥10. So the balance after row j has a closed form
 * (`availableAfter`), every row's available_after is right, and the account's balance is the sum
 * of its ledger (¥370 a block).
 */
const availableAfter = (jj: string) => {
  const j = `(${jj})::bigint`;
  return `(
  ((${j}) / 10 + 1) * ${UNITS.recharge}
  - (((${j}) / 10) * 8 + least((${j}) % 10, 8)) * ${UNITS.charge}
  + ((${j}) / 10 + case when (${j}) % 10 = 9 then 1 else 0 end) * ${UNITS.refund})`;
};

/** Users u in [lo, hi) and their accounts (balance = their ledger's sum); u = SCALE.users is the whale. */
export function usersSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  const whale = `u = ${SCALE.users}`;
  return `
    with made as (
      insert into users (id, tenant_id, phone, username, password_hash, certified, last_login_at, created_at, updated_at)
      select ${userId(ctx, 'u')}, case when ${whale} then ${ctx.tenantIds[0]} else ${tenantOf(ctx, 'u')} end,
        case when ${whale} then ${lit(SCALE_WHALE.phone)} else '17' || lpad(u::text, 9, '0') end,
        case when ${whale} then 'scale-whale' else 'scale' || u end, ${lit(ctx.passwordHash)}, u % 4 = 0,
        ${A} - (u % 30) * interval '1 day', ${A} - interval '400 days' + u * interval '1 minute', ${A}
      from generate_series(${lo}, ${hi - 1}) u
      on conflict do nothing
      returning id, tenant_id
    )
    insert into accounts (user_id, tenant_id, available, frozen, created_at, updated_at)
    select id, tenant_id, case when id = ${whaleUserId(ctx)} then ${availableAfter(String(WHALE.ledger - 1))}
      else ${availableAfter(String(PER.ledgerPerUser - 1))} end, 0, ${A} - interval '400 days', ${A}
    from made
    on conflict do nothing`;
}

/** rows: id, uid, u (tenant index), j, key, t, order_id (recharge order of a recharge row), inst. */
export function ledgerSql(rows: string) {
  return `
    insert into ledger_entries (id, user_id, tenant_id, kind, amount, frozen_amount, available_after, frozen_after,
      idempotency_key, reference_type, reference_id, memo, created_at)
    select id, uid, tenant, case when j % 10 = 0 then 'recharge' when j % 10 = 9 then 'refund' else 'charge' end,
      case when j % 10 = 0 then ${UNITS.recharge} when j % 10 = 9 then ${UNITS.refund} else -${UNITS.charge} end,
      0, ${availableAfter('j')}, 0, key, case when j % 10 = 0 then 'recharge_order' else 'instance' end,
      case when j % 10 = 0 then order_id::text else inst::text end,
      case when j % 10 = 0 then '在线充值' when j % 10 = 9 then '退款 job-' || inst else '按量计费 job-' || inst end, t
    from (${rows}) x`;
}

export const ledgerRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.ledger_entries} + g as id, ${userId(ctx, 'u')} as uid, ${tenantOf(ctx, 'u')} as tenant, j,
    'scale:ledger:' || lpad(g::text, 9, '0') as key, ${ledgerTime(ctx, 'j', PER.ledgerPerUser, 'u')} as t,
    ${ctx.base.recharge_orders} + u * ${PER.rechargePerUser} + j / 10 as order_id,
    ${releasedBase(ctx)} + 2 * u + j / 50 as inst
  from (select g, g / ${PER.ledgerPerUser} as u, g % ${PER.ledgerPerUser} as j
        from generate_series(${lo}, ${hi - 1}) g) x`;

export const whaleLedgerRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.ledger_entries} + ${SCALE.ledgerEntries} + j as id, ${whaleUserId(ctx)} as uid,
    ${ctx.tenantIds[0]} as tenant, j, 'scale:whale-ledger:' || lpad(j::text, 6, '0') as key, ${ledgerTime(ctx, 'j', WHALE.ledger, '0')} as t,
    ${ctx.base.recharge_orders} + ${SCALE.rechargeOrders} + j / 10 as order_id,
    ${whaleReleasedBase(ctx)} + j % ${WHALE.released} as inst
  from generate_series(${lo}, ${hi - 1}) j`;

/**
 * Recharge orders: rows name id, uid, u, r (order number of the user), t (when the matching
 * ledger recharge happened, for r < 10: those are SUCCESS and credited; later ones closed or failed).
 */
export function rechargeSql(rows: string) {
  const paid = 'r < 10';
  return `
    insert into recharge_orders (id, order_no, tenant_id, user_id, amount, payment_type, provider, status, subject, body,
      provider_trade_no, fail_reason, expires_at, paid_at, closed_at, created_at, updated_at)
    select id, 'RC' || to_char(t at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || lpad(upper(to_hex(id)), 12, '0'),
      tenant, uid, case when ${paid} then ${UNITS.recharge} else (r % 5 + 1) * ${UNITS.recharge / 5} end,
      'alipay', 'simulated', case when ${paid} then 'SUCCESS' when r % 4 = 1 then 'FAIL' else 'CLOSED' end,
      '账户充值', '账户充值', case when ${paid} then 'SIM' || id end,
      case when not ${paid} and r % 4 = 1 then '支付失败' end, t + interval '30 minutes',
      case when ${paid} then t end, case when not ${paid} and r % 4 <> 1 then t + interval '30 minutes' end,
      t - interval '1 minute', t
    from (${rows}) x
    order by t, id`;
}

export const rechargeRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.recharge_orders} + g as id, ${userId(ctx, 'u')} as uid, ${tenantOf(ctx, 'u')} as tenant, r,
    case when r < 10 then ${ledgerTime(ctx, 'r * 10', PER.ledgerPerUser, 'u')}
         else ${ledgerTime(ctx, '(r - 10) * 10 + 5', PER.ledgerPerUser, 'u')} end as t
  from (select g, g / ${PER.rechargePerUser} as u, g % ${PER.rechargePerUser} as r
        from generate_series(${lo}, ${hi - 1}) g) x`;

export const whaleRechargeRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.recharge_orders} + ${SCALE.rechargeOrders} + r as id, ${whaleUserId(ctx)} as uid,
    ${ctx.tenantIds[0]} as tenant, r, ${ledgerTime(ctx, 'r * 10', WHALE.ledger, '0')} as t
  from generate_series(${lo}, ${hi - 1}) r`;

/** Twelve voucher configs, four per tenant (issued only to that tenant's users). */
export function voucherConfigsSql(ctx: SeedContext) {
  const A = at(ctx);
  return `
    insert into voucher_configs (id, tenant_id, name, description, face_amount, valid_days, per_user_limit,
      created_at, updated_at)
    select ${ctx.base.voucher_configs} + c, ${intArray(ctx.tenantIds)}[c / 4 + 1], '算力体验券 ' || (c + 1),
      '批量生成的代金券', ${UNITS.voucher}, 90, 100000, ${A} - interval '400 days', ${A}
    from generate_series(0, ${SCALE.voucherConfigs - 1}) c
    on conflict do nothing`;
}

/**
 * Vouchers: rows name id, uid, tenant_index (0–2), v (number of the user's), created. Two of
 * every five are spent or expired; the rest hold money for months after the anchor.
 */
export function vouchersSql(ctx: SeedContext, rows: string) {
  const A = at(ctx);
  return `
    insert into vouchers (id, tenant_id, user_id, config_id, code, name, description, amount, remaining,
      expires_at, created_at, updated_at)
    select id, ${intArray(ctx.tenantIds)}[ti + 1], uid, ${ctx.base.voucher_configs} + ti * 4 + v % 4,
      'SV' || lpad(upper(to_hex(id)), 12, '0'), '算力体验券 ' || (ti * 4 + v % 4 + 1), '批量生成的代金券',
      ${UNITS.voucher}, case when v % 5 = 0 then 0 when v % 5 = 1 then ${UNITS.voucher}
        else ${UNITS.voucher} - (v % 5) * ${UNITS.voucher / 10} end,
      case when v % 5 < 2 then created + interval '90 days' else ${A} + interval '60 days' + (v % 5) * interval '30 days' end,
      created, created
    from (${rows}) x`;
}

export const voucherRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.vouchers} + g as id, ${userId(ctx, 'u')} as uid, u % 3 as ti, v,
    ${at(ctx)} - interval '300 days' + v * interval '40 days' + (u % 1440) * interval '1 minute' as created
  from (select g, g / ${PER.vouchersPerUser} as u, g % ${PER.vouchersPerUser} as v
        from generate_series(${lo}, ${hi - 1}) g) x`;

export const whaleVoucherRows = (ctx: SeedContext, lo: number, hi: number) => `
  select ${ctx.base.vouchers} + ${SCALE.vouchers} + v as id, ${whaleUserId(ctx)} as uid, 0 as ti, v,
    ${at(ctx)} - interval '300 days' + v * interval '1 second' * ${Math.floor((250 * 86_400) / WHALE.vouchers)} as created
  from generate_series(${lo}, ${hi - 1}) v`;

/** Discount rules: one in five is on now (for a year), the rest ended in the past year. */
export function discountsSql(ctx: SeedContext, lo: number, hi: number) {
  const A = at(ctx);
  const names = `(array[${SCALE_MODELS.map((m) => lit(m[0])).join(',')}]::text[])`;
  return `
    insert into discounts (id, tenant_id, region_id, gpu_model, name, description, rate_bp, starts_at, ends_at,
      enabled, created_at, updated_at)
    select ${ctx.base.discounts} + d, case when d % 2 = 0 then null else ${intArray(ctx.tenantIds)}[d % 3 + 1] end,
      case when d % 3 = 0 then null else ${intArray(ctx.regionIds)}[d % ${ctx.regionIds.length} + 1] end,
      ${names}[d % ${SCALE_MODELS.length} + 1], '批量折扣 ' || (d + 1), '批量生成的折扣', 7000 + (d % 6) * 500,
      ${A} - interval '360 days' + d * interval '3 days',
      case when d % 5 = 0 then ${A} + interval '365 days' else ${A} - interval '350 days' + d * interval '3 days' end,
      true, ${A} - interval '360 days', ${A}
    from generate_series(${lo}, ${hi - 1}) d
    on conflict do nothing`;
}

const ACTIONS = [
  'users.update',
  'users.balance_adjust',
  'instances.force_stop',
  'hosts.update',
  'vouchers.distribute',
  'admin.login',
  'instances.admin_start',
  'discounts.update',
];

/** Audit entries g over the past year (ten per user: its target). */
export function auditSql(ctx: SeedContext, lo: number, hi: number) {
  const actions = `(array[${ACTIONS.map(lit).join(',')}]::text[])`;
  return `
    insert into audit_log (id, admin_id, action, target, detail, ip, created_at)
    select ${ctx.base.audit_log} + g, ${ctx.adminId ?? 'null'}, ${actions}[g % ${ACTIONS.length} + 1],
      'user:' || ${userId(ctx, `g / ${PER.auditPerUser}`)}, jsonb_build_object('reason', '批量生成', 'n', g),
      ('10.1.' || (g / 250) % 250 || '.' || g % 250)::inet,
      ${at(ctx)} - interval '365 days' + g * interval '1 millisecond' * ${Math.floor((365 * 86_400_000) / SCALE.auditEntries)}
    from generate_series(${lo}, ${hi - 1}) g`;
}
