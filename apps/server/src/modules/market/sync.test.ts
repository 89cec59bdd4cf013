import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../app/clock.ts';
import { createTestApp } from '../../app/db/test-utils.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { DEMO_HOSTS } from '../system/demo-data.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ clock });
  // The demo hosts answer after 300 ms; tests need no wait.
  await t.db.update(hosts).set({ settings: sql`${hosts.settings} || '{"latencyMs":0}'::jsonb` });
});
afterAll(() => t.close());

const sync = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/gpu/sync' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const market = async () => {
  t.app.deps.services.market.invalidate();
  return (await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48' })).json().data;
};

describe('POST /api/gpu/sync', () => {
  it('probes every active host, keeps inventory, and the market says when it last synced', async () => {
    expect((await market()).lastSyncedAt).toBeNull();
    const body = await sync();
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
  });

  it('runs at most once per 30 s, answering the last result in between', async () => {
    clock.advance(10_000);
    const again = await sync();
    expect(again.data.synced).toBe(false);
    expect(again.message).toContain('刚刚同步过');
    expect(again.data.lastSyncedAt).toBe(new Date(clock.now().getTime() - 10_000).toISOString());
  });

  it('reports an unreachable host and records it on the host', async () => {
    await t.db
      .update(hosts)
      .set({ settings: sql`${hosts.settings} || '{"unreachable":true}'::jsonb` })
      .where(eq(hosts.name, 'nm-a-l40s-01'));
    clock.advance(30_000);
    const body = await sync();
    expect(body.data.synced).toBe(true);
    expect(body.data.hostsReachable).toBe(DEMO_HOSTS.length - 1);
    expect(body.data.changes).toEqual([
      expect.objectContaining({ hostName: 'nm-a-l40s-01', reachable: false }),
    ]);
    const [host] = await t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
    expect(host?.lastProbeOk).toBe(false);
  });
});
