import { BILLING_TYPES, MARKET_DEFAULT_PAGE_SIZE, MARKET_PAGE_SIZES } from '@gpu/shared/constants';
import { DASHBOARD_LOW_BALANCE_DEFAULT, DASHBOARD_PERIODS } from '@gpu/shared/ops-dashboard';

/** The goals: p99 with 50 concurrent clients. */
export const CUSTOMER_GOAL_MS = 30;
export const ADMIN_GOAL_MS = 100;
/** The deep page of every list: page 1,000 at size 10 (or the last page when there are fewer). */
const DEEP_PAGE = 1000;
const DEEP_SIZE = 10;

/** One line of the table: the requests a client sends in turn, all with the same headers. */
export interface ScaleFigure {
  /** The same at every size (the table's key). */
  name: string;
  /** What this size made of it (the page reached, the rows behind it). */
  detail?: string;
  goalMs: number;
  paths: string[];
  headers: Record<string, string>;
}

type Get = (path: string, headers: Record<string, string>) => Promise<{ data: unknown }>;
interface PageAnswer {
  total: number;
  list: unknown[];
}

/** `path` with page/size set (replacing any already there). */
function paged(path: string, page: number, size: number): string {
  const [base, query = ''] = path.split('?');
  const q = new URLSearchParams(query);
  q.set('page', String(page));
  q.set('size', String(size));
  return `${base}?${q}`;
}

/** Page 1,000 at size 10 of a list, or its last page when it has fewer rows; and which page that is. */
async function deepPage(get: Get, path: string, headers: Record<string, string>) {
  const { total } = (await get(paged(path, 1, DEEP_SIZE), headers)).data as PageAnswer;
  const page = Math.max(1, Math.min(DEEP_PAGE, Math.ceil(total / DEEP_SIZE)));
  return { page, total, path: paged(path, page, DEEP_SIZE) };
}

/** Page 1 as the screen asks for it, and the deep page: two figures. */
async function list(
  get: Get,
  name: string,
  goalMs: number,
  headers: Record<string, string>,
  path: string,
  firstSize: number,
  deepPath = path,
): Promise<ScaleFigure[]> {
  const deep = await deepPage(get, deepPath, headers);
  return [
    { name: `${name}, page 1`, goalMs, headers, paths: [paged(path, 1, firstSize)] },
    {
      name: `${name}, page ${DEEP_PAGE}`,
      detail: `page ${deep.page}${deep.page < DEEP_PAGE ? ' (the last)' : ''}, ${deep.total} rows`,
      goalMs,
      headers,
      paths: [deep.path],
    },
  ];
}

/** Every subset of `xs` (the empty one first). */
function subsets<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [[]];
  for (const x of xs) for (const s of out.slice()) out.push([...s, x]);
  return out;
}

/**
 * The market (SPEC.md §2, apps/web/src/features/market): billing type × region × GPU model ×
 * GPU count × host-name keyword, at the page sizes the screen offers. Every set of narrowing
 * filters (16) is sent, 4 queries each over the billing types, sizes and the values the screen
 * lists; grouped by how many filters are set (one figure per group and page: page 1, last page).
 */
async function marketFigures(get: Get, headers: Record<string, string>): Promise<ScaleFigure[]> {
  const first = (await get(`/api/gpu/market?size=${MARKET_DEFAULT_PAGE_SIZE}`, headers)).data as {
    regions: { id: number }[];
    gpuModels: string[];
    list: { hostName: string }[];
  };
  // Keywords as a visitor types them: the first half of a host name (matches that host's siblings).
  const keywords = [...new Set(first.list.map((i) => i.hostName.slice(0, Math.ceil(i.hostName.length / 2))))];
  const groups = new Map<number, { sets: string[]; firstPages: string[]; lastPages: string[] }>();
  let k = 0;
  for (const chosen of subsets(['region', 'model', 'count', 'keyword'] as const)) {
    const group = groups.get(chosen.length) ?? { sets: [], firstPages: [], lastPages: [] };
    groups.set(chosen.length, group);
    group.sets.push(chosen.join('+'));
    for (let n = 0; n < 4; n++, k++) {
      const q = new URLSearchParams({ billingType: BILLING_TYPES[k % BILLING_TYPES.length] as string });
      const pick = <T>(xs: T[]) => xs[(k * 5) % Math.max(1, xs.length)];
      if (chosen.includes('region') && first.regions.length)
        q.set('regionId', String(pick(first.regions)?.id));
      if (chosen.includes('model') && first.gpuModels.length)
        q.set('gpuModel', pick(first.gpuModels) as string);
      if (chosen.includes('count')) q.set('gpuCount', String(1 + (k % 8)));
      if (chosen.includes('keyword') && keywords.length) q.set('keyword', pick(keywords) as string);
      const size = MARKET_PAGE_SIZES[(k + (k >> 2)) % MARKET_PAGE_SIZES.length] as number;
      const path = `/api/gpu/market?${q}`;
      const { total } = (await get(paged(path, 1, size), headers)).data as PageAnswer;
      group.firstPages.push(paged(path, 1, size));
      group.lastPages.push(paged(path, Math.max(1, Math.ceil(total / size)), size));
    }
  }
  const out: ScaleFigure[] = [];
  for (const [n, g] of groups) {
    const label = n === 0 ? 'billing type only' : `${n} filter${n > 1 ? 's' : ''}`;
    const detail = `${g.firstPages.length} queries: ${n === 0 ? 'billing types × page sizes' : g.sets.join(', ')}`;
    const c = CUSTOMER_GOAL_MS;
    out.push({ name: `market: ${label}, page 1`, detail, goalMs: c, headers, paths: g.firstPages });
    out.push({ name: `market: ${label}, last page`, detail, goalMs: c, headers, paths: g.lastPages });
  }
  return out;
}

/** The console's screens for one customer (the whale: the most rows of every list). */
async function customerFigures(get: Get, headers: Record<string, string>): Promise<ScaleFigure[]> {
  const c = CUSTOMER_GOAL_MS;
  const openedAt = new Date(Date.now() - 60_000).toISOString();
  return [
    {
      // What /console/homepage asks for (ConsoleHomePage.tsx), in turn.
      name: 'console home (balance, monitor, 30 days, 5 instances)',
      goalMs: c,
      headers,
      paths: [
        '/api/user/balance',
        '/api/v2/billing/monitor/info',
        '/api/v2/billing/daily-consumption?days=30',
        '/api/gpu/instances?page=1&size=5',
      ],
    },
    // Page 1 as the screen opens (released hidden); deep pages with the released shown (all rows).
    ...(await list(
      get,
      'console instances',
      c,
      headers,
      `/api/gpu/instances?hideReleased=1&releasedSince=${encodeURIComponent(openedAt)}`,
      10,
      '/api/gpu/instances',
    )),
    ...(await list(
      get,
      'console orders',
      c,
      headers,
      '/api/v2/billing/records?kind=create,renewal,refund',
      20,
    )),
    ...(await list(get, 'console bills', c, headers, '/api/v2/billing/records', 20)),
    ...(await list(get, 'console recharge orders', c, headers, '/api/recharge/orders', 10)),
    ...(await list(get, 'console vouchers', c, headers, '/api/user/vouchers', 12)),
    { name: 'console vouchers statistics', goalMs: c, headers, paths: ['/api/user/vouchers/stats'] },
  ];
}

/** The back office's lists and statistics, as a super administrator (every tenant). */
async function adminFigures(
  get: Get,
  headers: Record<string, string>,
  phone: string,
): Promise<ScaleFigure[]> {
  const a = ADMIN_GOAL_MS;
  const one = (name: string, ...paths: string[]): ScaleFigure => ({ name, goalMs: a, headers, paths });
  return [
    ...(await list(get, 'admin users', a, headers, '/api/admin/user-management/users', 20)),
    one(
      'admin users, search by phone prefix',
      `/api/admin/user-management/users?page=1&size=20&keyword=${phone.slice(0, 7)}`,
    ),
    one('admin user-management statistics', '/api/admin/user-management/statistics'),
    ...(await list(get, 'admin instances', a, headers, '/api/admin/user-management/instances', 20)),
    one('admin instance statistics', '/api/admin/instance-monitor/statistics'),
    ...(await list(get, 'admin hosts', a, headers, '/api/admin/hosts', 10)),
    one('admin host statistics', '/api/admin/hosts/statistics'),
    ...(await list(get, 'admin audit log', a, headers, '/api/admin/audit-logs', 20)),
    one(
      'admin audit log filters (actions, admins)',
      '/api/admin/audit-logs/actions',
      '/api/admin/audit-logs/admins',
    ),
    ...(await list(get, 'admin balance warnings', a, headers, '/api/admin/balance/warnings?hours=24', 20)),
    one('admin balance statistics', '/api/admin/balance/stats'),
    one('admin balance health', '/api/admin/balance/health'),
    one('admin dashboard statistics', '/api/admin/dashboard'),
    one(
      'admin operations dashboard (7/30/90 days)',
      ...DASHBOARD_PERIODS.map(
        (d) => `/api/admin/ops-dashboard?days=${d}&lowBalance=${DASHBOARD_LOW_BALANCE_DEFAULT}`,
      ),
    ),
  ];
}

/** Every figure, with its concrete requests worked out from the data now in the database. */
export async function scaleFigures(
  get: Get,
  who: {
    visitor: Record<string, string>;
    customer: Record<string, string>;
    admin: Record<string, string>;
    phone: string;
  },
): Promise<ScaleFigure[]> {
  return [
    ...(await marketFigures(get, who.visitor)),
    ...(await customerFigures(get, who.customer)),
    ...(await adminFigures(get, who.admin, who.phone)),
  ];
}
