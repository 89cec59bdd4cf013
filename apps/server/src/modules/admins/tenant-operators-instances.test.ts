import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { instances } from '../instances/instances.tables.ts';
import { settings, tenantsAdminCalls } from '../tenant-admin/tenant-admin.test-helpers.ts';

/**
 * Issue 29: a tenant operator of tenant A sees only A's users and instances, and its statistics
 * count only A; B's instances and users are "not found" and nothing happens to them.
 */
const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let platform: Record<string, string>;
let opsA: Record<string, string>;
let roA: Record<string, string>;
let a = 0;
let b = 0;
const B_HOST = 'gpu.qingsong.example';
type Running = { id: number; user: { id: number; phone: string } };
let inA: Running;
let inB: Running;

const { createQingsong } = tenantsAdminCalls(
  () => h.t,
  () => platform,
);
const as = (headers: Record<string, string>, method: 'GET' | 'POST', url: string, body?: object) =>
  h.t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
const ok = async (res: Awaited<ReturnType<typeof as>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const idsOf = (page: { list: { id: number }[] }) => page.list.map((r) => r.id);

/** A running pay-as-you-go instance of a new, funded user of the tenant answering `host`. */
async function running(host: string, name: string): Promise<Running> {
  const u = await h.funded(500, host);
  const res = await h.create(u.headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: name,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as number;
  expect((await h.view(u.headers, id)).status).toBe('RUNNING');
  return { id, user: u.user };
}
const statusOf = async (id: number) =>
  (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0]?.status;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  platform = await h.t.adminHeaders('platform-admin');
  a = (await h.t.app.deps.modules.tenants.service.resolve('localhost')).id;
  b = await createQingsong();
  opsA = await h.t.adminHeaders('ops-a', { role: 'OPERATIONS', tenantId: a });
  roA = await h.t.adminHeaders('ro-a', { role: 'READONLY', tenantId: a });
  inA = await running('localhost', 'tenant-a');
  inB = await running(B_HOST, 'tenant-b');
});
afterAll(() => h.t.close());

describe('a tenant operator and instances, users', () => {
  it('lists and statistics hold only tenant A, whatever the filter names', async () => {
    for (const who of [opsA, roA]) {
      const list = await ok(await as(who, 'GET', '/api/admin/user-management/instances?size=100'));
      expect(idsOf(list)).toContain(inA.id);
      expect(idsOf(list)).not.toContain(inB.id);
      const runningNow = await ok(
        await as(who, 'GET', '/api/admin/instance-monitor/running-instances?size=100'),
      );
      expect(idsOf(runningNow)).toContain(inA.id);
      expect(idsOf(runningNow)).not.toContain(inB.id);
      const searched = await ok(
        await as(who, 'GET', `/api/admin/user-management/instances?keyword=tenant-b`),
      );
      expect(idsOf(searched)).toEqual([]);
      const ofB = await as(who, 'GET', `/api/admin/user-management/instances?userId=${inB.user.id}`);
      expect(ofB.statusCode).toBe(404);

      const users = await ok(await as(who, 'GET', `/api/admin/user-management/users?tenantId=${b}&size=100`));
      expect(idsOf(users)).toContain(inA.user.id);
      expect(idsOf(users)).not.toContain(inB.user.id);
      expect(users.list.every((u: { tenantId: number }) => u.tenantId === a)).toBe(true);
      const byPhone = await ok(
        await as(who, 'GET', `/api/admin/user-management/users?keyword=${inB.user.phone}`),
      );
      expect(byPhone.total).toBe(0);

      const stats = await ok(await as(who, 'GET', '/api/admin/user-management/statistics'));
      expect(stats.totalUsers).toBe(users.total);
      const monitor = await ok(await as(who, 'GET', '/api/admin/instance-monitor/statistics'));
      expect(monitor.running).toBe(runningNow.total);
      // The hosts' GPU occupancy is the platform's: a tenant operator gets none.
      expect(monitor.gpus).toEqual([]);
    }
    // The platform administrator still counts both tenants.
    const all = await ok(await as(platform, 'GET', '/api/admin/instance-monitor/statistics'));
    expect(all.gpus.length).toBeGreaterThan(0);
    const allRunning = await ok(
      await as(platform, 'GET', '/api/admin/instance-monitor/running-instances?size=100'),
    );
    expect(idsOf(allRunning)).toEqual(expect.arrayContaining([inA.id, inB.id]));
    expect(all.running).toBe(allRunning.total);
    const found = await ok(
      await as(platform, 'GET', '/api/admin/user-management/instances?keyword=tenant-b'),
    );
    expect(idsOf(found)).toEqual([inB.id]);
    const allUsers = await ok(await as(platform, 'GET', '/api/admin/user-management/statistics'));
    const opsUsers = await ok(await as(opsA, 'GET', '/api/admin/user-management/statistics'));
    expect(allUsers.totalUsers).toBeGreaterThan(opsUsers.totalUsers);
  });

  it("every action on tenant B's instance is 404 and it keeps running", async () => {
    for (const action of ['power-off', 'start', 'terminate']) {
      const res = await as(opsA, 'POST', `/api/admin/user-management/instances/${inB.id}/${action}`, {
        reason: '越权测试',
      });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(404);
    }
    const force = await as(opsA, 'POST', `/api/admin/instance-monitor/force-stop/${inB.id}?reason=x`);
    expect(force.statusCode, force.body).toBe(404);
    await h.deps.jobs.drain();
    expect(await statusOf(inB.id)).toBe('RUNNING');
  });

  it('OPERATIONS powers off its own instance; READONLY is refused (403)', async () => {
    const refused = await as(roA, 'POST', `/api/admin/user-management/instances/${inA.id}/power-off`, {
      reason: '维护',
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await as(roA, 'POST', `/api/admin/instance-monitor/force-stop/${inA.id}?reason=x`)).statusCode,
    ).toBe(403);
    expect(await statusOf(inA.id)).toBe('RUNNING');
    const off = await ok(
      await as(opsA, 'POST', `/api/admin/user-management/instances/${inA.id}/power-off`, { reason: '维护' }),
    );
    expect(off.status).toBe('STOPPING');
    await h.deps.jobs.drain();
    expect(await statusOf(inA.id)).toBe('STOPPED');
  });

  it('platform areas are refused to both (403): hosts, regions, audit, dashboards, finance, new tenants', async () => {
    const platformOnly: [string, string, object?][] = [
      ['GET', '/api/admin/hosts'],
      ['GET', '/api/admin/regions'],
      ['GET', '/api/admin/audit-logs'],
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/ops-dashboard'],
      ['GET', `/api/admin/tenants/${a}/hosts`],
      ['GET', '/api/admin/balance/stats'],
      ['POST', `/api/admin/users/${inA.user.id}/balance-adjustment`, { amount: 1, reason: 'x' }],
      ['POST', '/api/admin/tenants', { code: 'x', name: 'x', config: settings() }],
    ];
    for (const who of [opsA, roA])
      for (const [method, url, body] of platformOnly) {
        const res = await as(who, method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
  });
});
