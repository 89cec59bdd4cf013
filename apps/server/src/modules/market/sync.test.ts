import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { DEMO_HOSTS } from '../system/demo-data.ts';
import { MARKET_SYNC_TASK } from './sync.usecases.ts';

// Mid-minute: per-user rate-limit windows are fixed minutes of this clock.
const clock = fixedClock('2026-11-22T08:00:30Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let customer: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ clock, config: { RATE_LIMITS: 'on' } });
  // The demo hosts answer after 300 ms; tests need no wait.
  await t.db.update(hosts).set({ settings: sql`${hosts.settings} || '{"latencyMs":0}'::jsonb` });
  admin = await t.adminHeaders();
  customer = (await t.createUser()).headers;
});
afterAll(() => t.close());

/** The platform's sync, with the detailed result: administrators only. */
const adminSync = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/market/sync', headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const market = async () => {
  t.app.deps.modules.market.market.invalidate();
  return (await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48' })).json().data;
};

describe('POST /api/admin/market/sync', () => {
  it('probes every active host, keeps inventory, and the market says when it last synced', async () => {
    expect((await market()).lastSyncedAt).toBeNull();
    const body = await adminSync();
    expect(body.message).toBe('同步完成');
    expect(body.data).toMatchObject({
      synced: true,
      hostsChecked: DEMO_HOSTS.length,
      hostsReachable: DEMO_HOSTS.length,
      changes: [],
    });
    expect((await market()).lastSyncedAt).toBe(clock.now().toISOString());
    const after = await market();
    expect(after.list.find((i: { hostName: string }) => i.hostName === 'gd-b-h100-01').gpuIdleNum).toBe(2);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'market.sync'));
    expect(audit).toHaveLength(1);
  });

  it('runs at most once per 30 s, answering the last result in between', async () => {
    clock.advance(10_000);
    const again = await adminSync();
    expect(again.data.synced).toBe(false);
    expect(again.message).toContain('刚刚同步过');
    expect(again.data.lastSyncedAt).toBe(new Date(clock.now().getTime() - 10_000).toISOString());
  });

  it('reports an unreachable host with its error and records it on the host', async () => {
    await t.db
      .update(hosts)
      .set({ settings: sql`${hosts.settings} || '{"unreachable":true}'::jsonb` })
      .where(eq(hosts.name, 'nm-a-l40s-01'));
    clock.advance(30_000);
    const body = await adminSync();
    expect(body.data.synced).toBe(true);
    expect(body.data.hostsReachable).toBe(DEMO_HOSTS.length - 1);
    expect(body.data.changes).toEqual([
      expect.objectContaining({ hostName: 'nm-a-l40s-01', reachable: false, error: expect.any(String) }),
    ]);
    const [host] = await t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
    expect(host?.lastProbeOk).toBe(false);
  });

  it('is refused to customers and to the anonymous', async () => {
    for (const headers of [customer, {}]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/market/sync', headers });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('the market.sync task (the platform syncs on its own)', () => {
  it('probes the hosts every interval, whoever visits the market', async () => {
    expect(t.app.tasks.names()).toContain(MARKET_SYNC_TASK);
    clock.advance(30_000);
    await t.app.tasks.runNow(MARKET_SYNC_TASK);
    expect(t.app.tasks.stats()[MARKET_SYNC_TASK]).toMatchObject({ runs: 1, failures: 0 });
    // The run was this interval's sync: an admin asking now gets its result.
    const body = await adminSync();
    expect(body.data).toMatchObject({ synced: false, lastSyncedAt: clock.now().toISOString() });
  });
});

describe('POST /api/gpu/sync (the market page, SPEC.md §7)', () => {
  it('needs a signed-in customer', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/gpu/sync' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '401' });
  });

  it('reveals no host, count or driver error: only whether it synced and when', async () => {
    // The unreachable host of the test above is still unreachable; a fresh sync runs.
    clock.advance(30_000);
    const res = await t.app.inject({ method: 'POST', url: '/api/gpu/sync', headers: customer });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toEqual({ synced: true, lastSyncedAt: clock.now().toISOString() });
    expect(res.body).not.toContain('nm-a-l40s-01');
    // And between syncs the last one is answered just as tersely.
    const again = await t.app.inject({ method: 'POST', url: '/api/gpu/sync', headers: customer });
    expect(again.json().data).toEqual({ synced: false, lastSyncedAt: clock.now().toISOString() });
    // The platform still sees the detail.
    expect((await adminSync()).data.changes).toEqual([
      expect.objectContaining({ hostName: 'nm-a-l40s-01', reachable: false }),
    ]);
  });

  it('is rate-limited per customer (10 a minute)', async () => {
    const { headers } = await t.createUser();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await t.app.inject({ method: 'POST', url: '/api/gpu/sync', headers })).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(codes[10]).toBe(429);
    // Another customer has a budget of their own.
    expect((await t.app.inject({ method: 'POST', url: '/api/gpu/sync', headers: customer })).statusCode).toBe(
      200,
    );
  });
});
