import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../audit/audit.tables.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { accounts, ledgerEntries } from '../ledger/ledger.tables.ts';
import { operationsSuite } from './operations.test-helpers.ts';

const { h: app, clock, renewAdmin, req, running } = operationsSuite();

describe('admin only', () => {
  const gets = [
    '/api/admin/balance/warnings',
    '/api/admin/balance/stats',
    '/api/admin/balance/health',
    '/api/admin/user-management/users',
    '/api/admin/user-management/statistics',
    '/api/admin/user-management/instances',
    '/api/admin/instance-monitor/running-instances',
    '/api/admin/instance-monitor/statistics',
  ];
  const posts = [
    '/api/admin/balance/check',
    '/api/admin/user-management/instances/1/power-off',
    '/api/admin/user-management/instances/1/start',
    '/api/admin/user-management/instances/1/terminate',
    '/api/admin/instance-monitor/force-stop/1?reason=x',
  ];
  it('refuses strangers (401) and users (401/403), answers admins', async () => {
    const { headers } = await app().t.createUser();
    for (const url of gets) {
      expect((await req('GET', url, {})).statusCode, url).toBe(401);
      expect([401, 403], url).toContain((await req('GET', url, headers)).statusCode);
      expect((await req('GET', url)).statusCode, url).toBe(200);
    }
    for (const url of posts) {
      expect((await req('POST', url, {}, { reason: 'x' })).statusCode, url).toBe(401);
      expect([401, 403], url).toContain((await req('POST', url, headers, { reason: 'x' })).statusCode);
    }
  });
});

describe('balance monitoring', () => {
  it('warns about users whose balance will not cover their running instances for N hours', async () => {
    const poor = await running(10, 'poor');
    const rich = await running(1000, 'rich');
    clock.advance(30 * 60_000);
    await renewAdmin(); // admin tokens last an hour
    const warnings = async (q = '') => (await req('GET', `/api/admin/balance/warnings${q}`)).json().data;
    const page = await warnings('?size=100');
    const mine = page.list.find((w: { userId: number }) => w.userId === poor.user.id);
    // 10 yuan, half an hour (1.99) accrued: 8.01 / 3.98 = 2.0 hours left.
    expect(mine).toMatchObject({
      available: 10,
      pending: 1.99,
      hourlyCost: 3.98,
      runningInstances: 1,
      hoursLeft: 2,
    });
    expect(page.list.some((w: { userId: number }) => w.userId === rich.user.id)).toBe(false);
    const wide = await warnings('?hours=720&size=100');
    expect(wide.list.some((w: { userId: number }) => w.userId === rich.user.id)).toBe(true);
    const narrow = await warnings('?hours=1&size=100');
    expect(narrow.list.some((w: { userId: number }) => w.userId === poor.user.id)).toBe(false);

    const stats = (await req('GET', '/api/admin/balance/stats')).json().data;
    expect(stats.warningUsers).toBeGreaterThanOrEqual(1);
    expect(stats.runningHourlyInstances).toBeGreaterThanOrEqual(2);
    expect(stats.rechargeToday).toBeGreaterThanOrEqual(1010);

    for (const bad of ['?hours=0', '?hours=abc', '?hours=721', '?size=1000']) {
      const res = await req('GET', `/api/admin/balance/warnings${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toMatch(/^参数 (hours|size) 无效：/);
    }
    await app().action(poor.headers, 'release', poor.id);
    await app().action(rich.headers, 'release', rich.id);
  });

  it('the pending figure is what metering would charge now: whole fen, not the finer accrual', async () => {
    const u = await running(10, 'fraction');
    // 30 min 7 s at 3.98 yuan/hour accrues 1.9977 yuan; metering posts whole fen: 1.99.
    clock.advance(30 * 60_000 + 7_000);
    await renewAdmin(); // admin tokens last an hour
    const warnings = async () =>
      (await req('GET', '/api/admin/balance/warnings?hours=720&size=100')).json().data;
    const before = (await warnings()).list.find((w: { userId: number }) => w.userId === u.user.id);
    expect(before).toMatchObject({ available: 10, pending: 1.99, hoursLeft: 2 });

    await runMetering(app().deps);
    const charges = await app()
      .t.db.select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, u.user.id), eq(ledgerEntries.kind, 'charge')));
    expect(-charges.reduce((s, e) => s + e.amount, 0) / 10_000).toBe(before.pending);
    // Charged: nothing is pending any more, and the balance took what pending said.
    const after = (await warnings()).list.find((w: { userId: number }) => w.userId === u.user.id);
    expect(after).toMatchObject({ available: 8.01, pending: 0 });
    await app().action(u.headers, 'release', u.id);
  });

  it('health lists an account whose balance differs from its ledger; the manual check is audited', async () => {
    const healthy = (await req('GET', '/api/admin/balance/health')).json().data;
    expect(healthy).toMatchObject({ healthy: true, mismatches: [] });
    expect(healthy.totalAvailable).toBe(healthy.ledgerAvailable);

    const u = await app().funded(50);
    // A balance changed behind the ledger's back (what the health check exists to catch).
    await app()
      .t.db.update(accounts)
      .set({ available: sql`${accounts.available} + 10000` })
      .where(eq(accounts.userId, u.user.id));
    const broken = (await req('GET', '/api/admin/balance/health')).json().data;
    expect(broken.healthy).toBe(false);
    expect(broken.mismatches).toEqual([
      {
        userId: u.user.id,
        phone: u.user.phone,
        available: 51,
        ledgerAvailable: 50,
        frozen: 0,
        ledgerFrozen: 0,
      },
    ]);
    const check = await req('POST', '/api/admin/balance/check');
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().message).toBe('检查完成：发现余额与账本不一致的账户');
    const [audit] = await app().t.db.select().from(auditLog).where(eq(auditLog.action, 'balance.check'));
    expect(audit?.detail).toMatchObject({ healthy: false, mismatches: [u.user.id] });

    await app()
      .t.db.update(accounts)
      .set({ available: sql`${accounts.available} - 10000` })
      .where(eq(accounts.userId, u.user.id));
    expect((await req('POST', '/api/admin/balance/check')).json().data.healthy).toBe(true);
  });
});
