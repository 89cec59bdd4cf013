import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../app/db/test-utils.ts';

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

  it('refuses strangers, users and bad filters', async () => {
    expect((await list('', {})).statusCode).toBe(401);
    const { headers } = await t.createUser();
    expect([401, 403]).toContain((await list('', headers)).statusCode);
    for (const bad of ['?startDate=2026-02-30', '?adminId=abc', '?size=1000']) {
      const res = await list(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });
});
