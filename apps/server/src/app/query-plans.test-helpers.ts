/**
 * No request reads rows it does not return (issue 33): every statement a list, summary or
 * export route runs is EXPLAINed with sequential scans priced out (`enable_seqscan = off`, so
 * the planner takes an index wherever one can serve), and the plan must not scan a large table
 * sequentially nor sort one without an index. The tables are tiny here; what counts is whether
 * an index *can* serve, which is what a 10-million-row table needs.
 */
export const LARGE_TABLES = new Set([
  'users',
  'accounts',
  'instances',
  'ledger_entries',
  'billing_records',
  'audit_log',
  'recharge_orders',
  'vouchers',
  'instance_events',
  'instance_samples',
  'instance_sample_rollups',
  'user_notices',
  'notification_deliveries',
  'blockchain_orders',
]);

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Sort Key'?: string[];
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

const JOINS = new Set(['Nested Loop', 'Hash Join', 'Merge Join']);

/**
 * The large tables whose rows flow into `node` unbounded: down the outer side of joins (the side
 * that sets how many rows there are; nested loops probe the inner per row), stopping at a Limit
 * (a page's rows, however they were found). Subplans are checked on their own.
 */
const drivingLarge = (node: PlanNode): string[] => {
  if (node['Node Type'] === 'Limit') return [];
  const rel = node['Relation Name'];
  if (rel) return LARGE_TABLES.has(rel) ? [rel] : [];
  const kids = (node.Plans ?? []).filter(
    (p) => p['Parent Relationship'] !== 'SubPlan' && p['Parent Relationship'] !== 'InitPlan',
  );
  if (JOINS.has(node['Node Type'])) return kids[0] ? drivingLarge(kids[0]) : [];
  return kids.flatMap(drivingLarge);
};

/**
 * What is wrong with one plan: a seq scan of a large table; a sort of rows read unbounded from
 * one (no index gives that order); a count over the whole result beside a page.
 */
export function planProblems(node: PlanNode): string[] {
  const own: string[] = [];
  const rel = node['Relation Name'];
  if (node['Node Type'] === 'Seq Scan' && rel && LARGE_TABLES.has(rel)) own.push(`Seq Scan on ${rel}`);
  if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') {
    const large = drivingLarge(node);
    if (large.length > 0) own.push(`Sort (${(node['Sort Key'] ?? []).join(', ')}) over ${large.join(', ')}`);
  }
  // `count(*) over ()` beside a page evaluates every matching row, however small the page.
  if (node['Node Type'] === 'WindowAgg') {
    const large = drivingLarge(node);
    if (large.length > 0) own.push(`WindowAgg (a count over the whole result) over ${large.join(', ')}`);
  }
  return [...own, ...(node.Plans ?? []).flatMap(planProblems)];
}

/**
 * Plans known to read more than they return, each with why it stays (issue 33's report lists
 * them). Anything else the check finds fails the test.
 */
export const ACCEPTED: { route: RegExp; problem: RegExp; why: string }[] = [
  {
    route: /^\/api\/v2\/billing\/daily-consumption/,
    problem: /^Sort \(\(to_char/,
    why: "groups one user's own bills of the last N days by day: bounded by that user and range",
  },
  {
    route: /^\/api\/v2\/billing\/records\?.*instanceId=/,
    problem: /^Sort \(billing_records(_1)?\.id DESC\)/,
    why: "one instance's lines (at most one an hour of its life) from its own index, sorted",
  },
  {
    route: /^\/api\/v2\/billing\/export/,
    problem: /^Sort \(billing_records\.id DESC\)/,
    why: "a 5,000-row chunk of one user: the planner may top-N sort that user's rows rather than walk the index",
  },
  {
    route: /sortBy=totalSpend/,
    problem: /over users|over billing_records/,
    why: "total spend has no maintained per-user figure yet: sorting by it sums every user's bills",
  },
  {
    route: /^\/api\/admin\/user-management\/users\?.*keyword=/,
    problem: /^Sort \(u(_1)?\.id DESC\) over users$/,
    why: 'a substring search reads only its matches (pg_trgm indexes), then orders them: bounded by how many users match',
  },
];
