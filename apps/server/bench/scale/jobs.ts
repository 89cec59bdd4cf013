import {
  auditSql,
  discountsSql,
  ledgerRows,
  ledgerSql,
  rechargeRows,
  rechargeSql,
  usersSql,
  voucherRows,
  vouchersSql,
  whaleLedgerRows,
  whaleRechargeRows,
  whaleVoucherRows,
} from './customers.ts';
import {
  containersSql,
  gpusSql,
  hostsSql,
  portsSql,
  releasedBase,
  runningRows,
  runningSql,
  skusSql,
  whaleReleasedBase,
  whaleUserId,
} from './fleet.ts';
import {
  billRows,
  billsSql,
  releasedEventsSql,
  releasedRows,
  releasedSql,
  runningEventsSql,
  whaleBillRows,
} from './history.ts';
import { at, SCALE, type SeedContext, WHALE } from './plan.ts';
import { rollupsSql } from './rollups.ts';

/** One generated table part: `total` rows at 100 %, written `chunk` indexes per statement. */
export interface Job {
  /** What progress names (a table, or table/part). */
  name: string;
  total: number;
  chunk: number;
  sql(lo: number, hi: number): string;
}

const PORTS = SCALE.hosts * SCALE.portsPerHost;
/** Event ids: running instances', released ones' (two each), the whale's running, the whale's released. */
const eventBases = (ctx: SeedContext) => {
  const running = ctx.base.instance_events;
  const released = running + SCALE.runningInstances;
  const whaleRunning = released + 2 * SCALE.releasedInstances;
  return { running, released, whaleRunning, whaleReleased: whaleRunning + WHALE.running };
};

/**
 * The scaled tables: `first` in foreign-key order, then two lanes that refer only to what `first`
 * wrote and run side by side (two connections: both cores of the database busy).
 */
export function scaledJobs(ctx: SeedContext): { first: Job[]; lanes: Job[][] } {
  const ev = eventBases(ctx);
  const all: Job[] = [
    { name: 'hosts', total: SCALE.hosts, chunk: 1_000, sql: (lo, hi) => hostsSql(ctx, lo, hi) },
    { name: 'gpu_skus', total: SCALE.hosts, chunk: 1_000, sql: (lo, hi) => skusSql(ctx, lo, hi) },
    { name: 'host_gpus', total: SCALE.gpus, chunk: 8_000, sql: (lo, hi) => gpusSql(ctx, lo, hi) },
    { name: 'host_ports', total: PORTS, chunk: 200_000, sql: (lo, hi) => portsSql(ctx, lo, hi) },
    { name: 'users+accounts', total: SCALE.users, chunk: 50_000, sql: (lo, hi) => usersSql(ctx, lo, hi) },
    {
      name: 'instances/running',
      total: SCALE.runningInstances,
      chunk: 20_000,
      sql: (lo, hi) => runningSql(ctx, runningRows(ctx, lo, hi)),
    },
    {
      name: 'simulated_containers',
      total: SCALE.runningInstances,
      chunk: 20_000,
      sql: (lo, hi) => containersSql(ctx, runningRows(ctx, lo, hi)),
    },
    {
      name: 'instance_events/running',
      total: SCALE.runningInstances,
      chunk: 20_000,
      sql: (lo, hi) => runningEventsSql(ctx, runningRows(ctx, lo, hi), ev.running),
    },
    {
      name: 'instances/released',
      total: SCALE.releasedInstances,
      chunk: 100_000,
      sql: (lo, hi) => releasedSql(ctx, releasedRows(ctx, lo, hi)),
    },
    {
      name: 'instance_events/released',
      total: SCALE.releasedInstances,
      chunk: 100_000,
      sql: (lo, hi) => releasedEventsSql(`${releasedBase(ctx)} + i`, ev.released, lo, hi),
    },
    {
      name: 'ledger_entries',
      total: SCALE.ledgerEntries,
      chunk: 500_000,
      sql: (lo, hi) => ledgerSql(ledgerRows(ctx, lo, hi)),
    },
    {
      name: 'billing_records',
      total: SCALE.billLines,
      chunk: 500_000,
      sql: (lo, hi) => billsSql(ctx, billRows(ctx, lo, hi)),
    },
    {
      name: 'recharge_orders',
      total: SCALE.rechargeOrders,
      chunk: 500_000,
      sql: (lo, hi) => rechargeSql(rechargeRows(ctx, lo, hi)),
    },
    {
      name: 'vouchers',
      total: SCALE.vouchers,
      chunk: 250_000,
      sql: (lo, hi) => vouchersSql(ctx, voucherRows(ctx, lo, hi)),
    },
    { name: 'discounts', total: SCALE.discounts, chunk: 1_000, sql: (lo, hi) => discountsSql(ctx, lo, hi) },
    { name: 'audit_log', total: SCALE.auditEntries, chunk: 500_000, sql: (lo, hi) => auditSql(ctx, lo, hi) },
    {
      name: 'instance_sample_rollups',
      total: SCALE.hosts / SCALE.rollupHostsPerInstance,
      chunk: 10,
      sql: (lo, hi) => rollupsSql(ctx, lo, hi),
    },
  ];
  const named = (names: string[]) => all.filter((j) => names.includes(j.name));
  const laneA = ['ledger_entries', 'recharge_orders', 'audit_log'];
  const laneB = ['billing_records', 'vouchers', 'discounts', 'instance_sample_rollups'];
  return {
    first: all.filter((j) => !laneA.includes(j.name) && !laneB.includes(j.name)),
    lanes: [named(laneA), named(laneB)],
  };
}

/** The whale's rows: fixed counts, written whole by the first seed (its host is host index SCALE.hosts). */
export function whaleJobs(ctx: SeedContext): Job[] {
  const ev = eventBases(ctx);
  const uid = whaleUserId(ctx);
  const n = SCALE.hosts;
  const running = (lo: number, hi: number) =>
    `select r, ${n} as h, r as s, 0 as u, ${uid} as uid from generate_series(${lo}, ${hi - 1}) r`;
  const released = (lo: number, hi: number) => `
    select ${whaleReleasedBase(ctx)} + i as id, ${n} as h, 0 as u, ${uid} as uid, i as n,
      ${at(ctx)} - interval '365 days' + i * interval '1 second' * ${Math.floor((365 * 86_400) / WHALE.released)} as created
    from generate_series(${lo}, ${hi - 1}) i`;
  const bills = WHALE.orderLines + WHALE.meteringLines;
  return [
    { name: 'whale/host', total: 1, chunk: 1, sql: () => hostsSql(ctx, n, n + 1) },
    { name: 'whale/sku', total: 1, chunk: 1, sql: () => skusSql(ctx, n, n + 1) },
    { name: 'whale/gpus', total: 1, chunk: 1, sql: () => gpusSql(ctx, n * 8, n * 8 + 8) },
    { name: 'whale/ports', total: 1, chunk: 1, sql: () => portsSql(ctx, PORTS, PORTS + SCALE.portsPerHost) },
    { name: 'whale/user', total: 1, chunk: 1, sql: () => usersSql(ctx, SCALE.users, SCALE.users + 1) },
    {
      name: 'whale/running',
      total: WHALE.running,
      chunk: 100,
      sql: (lo, hi) => runningSql(ctx, running(lo, hi)),
    },
    {
      name: 'whale/containers',
      total: WHALE.running,
      chunk: 100,
      sql: (lo, hi) => containersSql(ctx, running(lo, hi)),
    },
    {
      name: 'whale/running events',
      total: WHALE.running,
      chunk: 100,
      sql: (lo, hi) => runningEventsSql(ctx, running(lo, hi), ev.whaleRunning),
    },
    {
      name: 'whale/released',
      total: WHALE.released,
      chunk: 20_000,
      sql: (lo, hi) => releasedSql(ctx, released(lo, hi)),
    },
    {
      name: 'whale/released events',
      total: WHALE.released,
      chunk: 20_000,
      sql: (lo, hi) => releasedEventsSql(`${whaleReleasedBase(ctx)} + i`, ev.whaleReleased, lo, hi),
    },
    {
      name: 'whale/ledger',
      total: WHALE.ledger,
      chunk: 20_000,
      sql: (lo, hi) => ledgerSql(whaleLedgerRows(ctx, lo, hi)),
    },
    {
      name: 'whale/bills',
      total: bills,
      chunk: 40_000,
      sql: (lo, hi) => billsSql(ctx, whaleBillRows(ctx, uid, whaleReleasedBase(ctx), lo, hi)),
    },
    {
      name: 'whale/recharge',
      total: WHALE.rechargeOrders,
      chunk: 20_000,
      sql: (lo, hi) => rechargeSql(whaleRechargeRows(ctx, lo, hi)),
    },
    {
      name: 'whale/vouchers',
      total: WHALE.vouchers,
      chunk: 20_000,
      sql: (lo, hi) => vouchersSql(ctx, whaleVoucherRows(ctx, lo, hi)),
    },
  ];
}
