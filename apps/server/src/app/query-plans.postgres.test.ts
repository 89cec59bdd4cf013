import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE_WHALE, seedScale } from '../../bench/scale/seed.ts';
import { users } from '../modules/auth/auth.tables.ts';
import { systemClock } from '../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../test/instances.ts';

import { ACCEPTED, LARGE_TABLES, type PlanNode, planProblems } from './query-plans.test-helpers.ts';

/**
 * Every statement of the routes below is EXPLAINed on a slice of the scale fleet; the rules and
 * what counts as a problem are in query-plans.test-helpers.ts.
 */
interface Captured {
  text: string;
  values: unknown[];
}

describe.runIf(process.env.DATABASE_URL)(
  'query plans of list, summary and export routes (PostgreSQL)',
  () => {
    let h: Awaited<ReturnType<typeof instanceTestApp>>;
    let customer: Record<string, string>;
    let admin: Record<string, string>;
    let explainer: pg.Client;
    const captured: Captured[] = [];
    let capturing = false;
    const originalQuery = pg.Client.prototype.query;

    beforeAll(async () => {
      // Every statement goes through a pg Client (the pool lends them), so this sees them all.
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const [first, second] = args as [unknown, unknown];
        if (capturing) {
          if (typeof first === 'string') captured.push({ text: first, values: (second as unknown[]) ?? [] });
          else if (first && typeof first === 'object' && 'text' in first) {
            const q = first as { text: string; values?: unknown[] };
            captured.push({ text: q.text, values: q.values ?? (second as unknown[]) ?? [] });
          }
        }
        return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof pg.Client.prototype.query;

      // Statistics reused for 30 s, as in production: a test checks that a second read reuses them.
      h = await instanceTestApp(systemClock, { ADMIN_STATS_CACHE_S: '30' });
      const u = await h.funded(5_000);
      customer = u.headers;
      admin = await h.t.adminHeaders();
      const machine = (await h.market()).find((m) => m.gpuIdleNum > 0);
      for (const [i, billing] of [
        { billingType: 'hourly' },
        { billingType: 'daily', duration: 1 },
      ].entries()) {
        const res = await h.create(customer, {
          machineId: machine?.id,
          instanceName: `plan-${i}`,
          image: IMAGE,
          gpuAmount: 1,
          ...billing,
        });
        expect(res.statusCode).toBe(200);
      }
      await h.t.app.inject({
        method: 'POST',
        url: '/api/pay/createQrCode',
        headers: customer,
        payload: { amount: 100 },
      });
      await h.t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${u.user.id}/balance-adjustment`,
        headers: admin,
        payload: { amount: 1, reason: '计划测试' },
      });
      // A small slice of the issue 33 fleet (its whale has 10,000+ rows in every customer list), so
      // the planner's statistics have the skew of a real platform: one user's rows among many.
      await seedScale(h.t.database, { fraction: 0.002 });
      const [whale] = await h.t.db.select().from(users).where(eq(users.phone, SCALE_WHALE.phone));
      if (!whale) throw new Error('the scale seed has no whale');
      customer = { authorization: `Bearer ${await h.t.userToken(whale)}` };
      const url = process.env.DATABASE_URL as string;
      const dbName = await h.t.db.execute('select current_database() as name');
      const name = (dbName as unknown as { rows: { name: string }[] }).rows[0]?.name as string;
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      explainer = new pg.Client({ connectionString: dbUrl.toString() });
      await explainer.connect();
      // As autovacuum leaves a table: statistics and the visibility map (index-only scans).
      await explainer.query('vacuum analyze');
      // Joins priced like a large database's: nested loops of index lookups. On tiny tables the
      // planner would merge- or hash-join whole tables, sorting them, which says nothing about scale.
      await explainer.query(
        'set enable_seqscan = off; set enable_mergejoin = off; set enable_hashjoin = off',
      );
    });
    afterAll(async () => {
      pg.Client.prototype.query = originalQuery;
      await explainer?.end();
      await h?.t.close();
    });

    const customerRoutes = [
      '/api/gpu/market?size=12',
      '/api/gpu/market?size=12&billingType=daily&gpuCount=1&keyword=a&gpuModel=RTX%204090&regionId=1&page=2',
      '/api/gpu/instances?page=1&size=10',
      '/api/gpu/instances?page=1000&size=10',
      '/api/gpu/instances?page=1&size=10&hideReleased=1',
      '/api/gpu/instances?page=1&size=5',
      '/api/v2/billing/records?page=1&size=10&kind=create,renewal,refund',
      '/api/v2/billing/records?page=1000&size=10&kind=create,renewal,refund',
      '/api/v2/billing/records?page=1&size=10',
      '/api/v2/billing/records?page=1000&size=10',
      '/api/v2/billing/records?page=1&size=10&billingType=hourly&from=2020-01-01&to=2099-01-01',
      '/api/v2/billing/records?page=1&size=10&instanceId=1',
      '/api/recharge/orders?page=1&size=10',
      '/api/recharge/orders?page=1000&size=10',
      '/api/user/vouchers?page=1&size=10',
      '/api/user/vouchers?page=1000&size=10',
      '/api/user/vouchers/stats',
      '/api/user/vouchers/available',
      '/api/user/balance',
      '/api/v2/billing/summary',
      '/api/v2/billing/monitor/info',
      '/api/v2/billing/daily-consumption?days=30',
      '/api/user/notifications',
      '/api/v2/billing/export',
    ];
    const adminRoutes = [
      '/api/admin/user-management/users?page=1&size=10',
      '/api/admin/user-management/users?page=1000&size=10',
      '/api/admin/user-management/users?page=1&size=10&sortBy=available',
      '/api/admin/user-management/users?page=1&size=10&sortBy=totalSpend&order=asc',
      '/api/admin/user-management/users?page=1&size=10&keyword=139',
      '/api/admin/user-management/users?page=1&size=10&tenantId=1&startDate=2020-01-01&endDate=2099-01-01',
      '/api/admin/user-management/instances?page=1&size=10',
      '/api/admin/user-management/instances?page=1000&size=10',
      '/api/admin/user-management/instances?page=1&size=10&status=RUNNING&billingType=hourly',
      '/api/admin/user-management/instances?page=1&size=10&keyword=plan',
      '/api/admin/hosts?page=1&size=10',
      '/api/admin/hosts/statistics',
      '/api/admin/audit-logs?page=1&size=10',
      '/api/admin/audit-logs?page=1000&size=10',
      '/api/admin/audit-logs?page=1&size=10&action=hosts.update&startDate=2020-01-01&endDate=2099-01-01',
      '/api/admin/audit-logs/actions',
      '/api/admin/audit-logs/admins',
    ];

    /**
     * Figures over whole tables: computed at most once per 30 s per key (aggregate-cache.ts), in
     * the background once stale. A request reads them from memory: no statement on a large table.
     */
    const cachedStatistics = [
      '/api/admin/user-management/statistics',
      '/api/admin/instance-monitor/statistics',
      '/api/admin/balance/stats',
      '/api/admin/balance/health',
      '/api/admin/ops-dashboard',
      '/api/admin/ops-dashboard?days=30',
      '/api/admin/dashboard',
      '/api/admin/balance/warnings?page=1&size=10',
      '/api/admin/balance/warnings?page=2&size=10&hours=48',
    ];
    const mentionsLargeTable = (text: string) =>
      [...LARGE_TABLES].some((t) => new RegExp(`\\b(from|join)\\s+"?${t}"?\\b`, 'i').test(text));

    const explainRoute = async (url: string, headers: Record<string, string>) => {
      h.t.app.deps.modules.market.market.invalidate();
      captured.length = 0;
      capturing = true;
      const res = await h.t.app.inject({ method: 'GET', url, headers });
      capturing = false;
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(300);
      const problems: string[] = [];
      for (const q of captured.splice(0)) {
        if (!/^\s*(select|with|update|delete)\b/i.test(q.text)) continue;
        const r = await explainer.query(`explain (format json) ${q.text}`, q.values).catch((e: Error) => {
          throw new Error(`${url}: ${e.message} in ${q.text} with ${JSON.stringify(q.values)}`);
        });
        const plan = (r.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode;
        for (const p of planProblems(plan)) {
          if (ACCEPTED.some((x) => x.route.test(url) && x.problem.test(p))) continue;
          problems.push(`${url}\n  ${p}\n  in: ${q.text.slice(0, 300)}`);
        }
      }
      return problems;
    };

    it('the planner recognises a bad plan (the check can fail)', async () => {
      const r = await explainer.query('explain (format json) select * from ledger_entries order by amount');
      const plan = (r.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode;
      expect(planProblems(plan).join('\n')).toMatch(/Seq Scan on ledger_entries|Sort \(amount\)/);
    });

    it('customer routes read only through indexes', async () => {
      const problems: string[] = [];
      for (const url of customerRoutes) problems.push(...(await explainRoute(url, customer)));
      expect(problems).toEqual([]);
    });

    it('admin routes read only through indexes', async () => {
      const problems: string[] = [];
      for (const url of adminRoutes) problems.push(...(await explainRoute(url, admin)));
      expect(problems).toEqual([]);
    });

    it('admin statistics come from the short-lived cache, with the time they were computed', async () => {
      for (const url of cachedStatistics) {
        const first = await h.t.app.inject({ method: 'GET', url, headers: admin });
        expect(first.statusCode, url).toBe(200);
        const stamp = (d: { computedAt?: string; checkedAt?: string }) => d.computedAt ?? d.checkedAt;
        expect(stamp(first.json().data), url).toBeTruthy();
        captured.length = 0;
        capturing = true;
        const again = await h.t.app.inject({ method: 'GET', url, headers: admin });
        capturing = false;
        expect(again.statusCode, url).toBe(200);
        expect(stamp(again.json().data), url).toBe(stamp(first.json().data));
        expect(
          captured.filter((q) => mentionsLargeTable(q.text)).map((q) => `${url}: ${q.text.slice(0, 200)}`),
        ).toEqual([]);
      }
    });
  },
);
