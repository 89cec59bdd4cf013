import { TOTAL_CAP } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;

beforeAll(async () => {
  t = await createTestApp({ demo: false });
});
afterAll(() => t.close());

const list = async (query: string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `/api/admin/audit-logs${query}`,
    headers: headers ?? (await t.adminHeaders()),
  });

describe('audit log viewer', () => {
  it('lists admin writes newest first, filtered by action prefix and target', async () => {
    const admin = await t.adminHeaders();
    const { user } = await t.createUser();
    for (const amount of [10, 20]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.id}/balance-adjustment`,
        headers: admin,
        payload: { amount, reason: `补偿${amount}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await list(`?action=billing.&target=user:${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page.total).toBe(2);
    expect(page.list.map((e: { detail: { amount: number } }) => e.detail.amount)).toEqual([20, 10]);
    expect(page.list[0]).toMatchObject({ action: 'billing.balance_adjustment', adminName: 'test-admin' });

    // Filter by the admin who acted; a prefix that matches nothing is an empty page, not an error.
    const adminId = page.list[0].adminId;
    expect((await list(`?adminId=${adminId}&target=user:${user.id}`)).json().data.total).toBe(2);
    expect((await list(`?adminId=${adminId + 1000}&target=user:${user.id}`)).json().data.total).toBe(0);
    expect((await list('?action=nothing.like.this')).json().data).toMatchObject({ list: [], total: 0 });
    expect((await list('/actions')).json().data).toContain('billing.balance_adjustment');
  });

  it('filters by Shanghai calendar days', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const all = (await list(`?startDate=${today}&endDate=${today}`)).json().data.total;
    expect(all).toBeGreaterThan(0);
    expect((await list('?startDate=2000-01-01&endDate=2000-01-02')).json().data.total).toBe(0);
  });

  it('lists the administrators seen in the log, by name, for the admin filter', async () => {
    // A second admin acts; a failed sign-in with an unknown name is logged without an admin.
    const second = await t.adminHeaders('aa-second-admin');
    const { user } = await t.createUser();
    const adjusted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/balance-adjustment`,
      headers: second,
      payload: { amount: 5, reason: '第二位管理员' },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username: 'nobody-here', password: 'Wrong12345' },
    });
    expect(failed.statusCode).toBe(401);
    expect((await list('?action=admin.login_failed&target=nobody-here')).json().data.list[0]).toMatchObject({
      adminId: null,
    });

    const res = await list('/admins');
    expect(res.statusCode, res.body).toBe(200);
    const actors: { adminId: number; adminName: string | null }[] = res.json().data;
    expect(actors.map((a) => a.adminName)).toEqual(['aa-second-admin', 'test-admin']);
    expect(actors.every((a) => Number.isInteger(a.adminId))).toBe(true);

    // Each one's id filters the log to that admin's rows.
    const [secondActor] = actors;
    const page = (await list(`?adminId=${secondActor?.adminId}`)).json().data;
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ adminName: 'aa-second-admin', target: `user:${user.id}` });
  });

  it('refuses strangers, users and bad filters', async () => {
    expect((await list('', {})).statusCode).toBe(401);
    expect((await list('/admins', {})).statusCode).toBe(401);
    const { headers } = await t.createUser();
    expect([401, 403]).toContain((await list('', headers)).statusCode);
    expect([401, 403]).toContain((await list('/admins', headers)).statusCode);
    for (const bad of ['?startDate=2026-02-30', '?adminId=abc', '?size=1000']) {
      const res = await list(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });
});

// Runs after the viewer's tests above: they count the administrators seen in the log.
describe('audit log viewer: the admin filter', () => {
  it('filters by the admin who acted: each admin sees only their own entries', async () => {
    const alice = await t.adminHeaders('audit-alice');
    const bob = await t.adminHeaders('audit-bob');
    const { user } = await t.createUser();
    const adjust = async (headers: Record<string, string>, amount: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.id}/balance-adjustment`,
        headers,
        payload: { amount, reason: `调整${amount}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await adjust(alice, 1);
    await adjust(bob, 2);
    await adjust(alice, 3);
    const all = (await list(`?target=user:${user.id}`)).json().data;
    expect(all.total).toBe(3);
    const idOf = (name: string) =>
      all.list.find((e: { adminName: string }) => e.adminName === name)?.adminId as number;
    const [aliceId, bobId] = [idOf('audit-alice'), idOf('audit-bob')];
    expect(aliceId).not.toBe(bobId);
    const byAdmin = async (adminId: number, extra = '') => {
      const res = await list(`?adminId=${adminId}${extra}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as {
        total: number;
        list: { adminId: number; adminName: string; detail: { amount: number } }[];
      };
    };
    const a = await byAdmin(aliceId, `&target=user:${user.id}`);
    expect(a.total).toBe(2);
    expect(a.list.map((e) => e.detail.amount)).toEqual([3, 1]);
    expect(a.list.every((e) => e.adminId === aliceId && e.adminName === 'audit-alice')).toBe(true);
    // Without other filters too: all of bob's entries, none of alice's.
    const b = await byAdmin(bobId);
    expect(b.total).toBe(1);
    expect(b.list[0]).toMatchObject({ adminId: bobId, adminName: 'audit-bob', detail: { amount: 2 } });
  });

  it('counts a whole long log only up to the cap, and says there are more (issue 33)', async () => {
    const admin = await t.adminHeaders();
    await t.db.execute(
      sql`insert into audit_log (admin_id, action, target) select null, 'hosts.update', 'host:' || g from generate_series(1, ${TOTAL_CAP + 5}) g`,
    );
    const page = (await list('?page=2&size=10', admin)).json().data;
    expect(page).toMatchObject({ total: TOTAL_CAP, totalCapped: true, page: 2 });
    expect(page.list).toHaveLength(10);
    // A filtered list under the cap still has its exact total, and no flag.
    const few = (await list('?action=billing.balance_adjustment', admin)).json().data;
    expect(few.totalCapped).toBeUndefined();
    expect(few.total).toBeGreaterThan(0);
    expect(few.total).toBeLessThan(10);
    // The filter's actions come from the loose index scan: each once.
    const actions = (await list('/actions', admin)).json().data as string[];
    expect(actions).toEqual([...new Set(actions)]);
    expect(actions).toContain('hosts.update');
  });
});
