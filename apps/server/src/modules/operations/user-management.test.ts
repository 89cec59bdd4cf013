import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../audit/audit.tables.ts';
import { instanceEvents } from '../instances/instances.tables.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { operationsSuite } from './operations.test-helpers.ts';

const { h: app, admin: adminHeaders, clock, renewAdmin, req, running, heldGpus } = operationsSuite();

describe('user management', () => {
  it('lists users by phone, tenant and registration day, with balance and spend', async () => {
    const u = await app().funded(321);
    const list = async (q: string) => (await req('GET', `/api/admin/user-management/users${q}`)).json().data;
    const found = await list(`?keyword=${u.user.phone.slice(3)}`);
    expect(found.total).toBe(1);
    expect(found.list[0]).toMatchObject({
      id: u.user.id,
      phone: u.user.phone,
      available: 321,
      totalSpend: 0,
      instances: 0,
      tenantId: u.user.tenantId,
    });
    expect((await list(`?keyword=${u.user.phone}&tenantId=${u.user.tenantId}`)).total).toBe(1);
    expect((await list(`?keyword=${u.user.phone}&tenantId=999999`)).total).toBe(0);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await list(`?keyword=${u.user.phone}&startDate=${today}&endDate=${today}`)).total).toBe(1);
    expect((await list(`?keyword=${u.user.phone}&startDate=2000-01-01&endDate=2000-01-02`)).total).toBe(0);
    for (const [bad, field] of [
      ['?startDate=2026-02-30', 'startDate'],
      ['?tenantId=abc', 'tenantId'],
      ['?size=0', 'size'],
    ]) {
      const res = await req('GET', `/api/admin/user-management/users${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain(`参数 ${field} 无效`);
    }
    // Sorted by balance, either way.
    const rich = await app().funded(99_999);
    const byBalance = await list('?sortBy=available&order=desc&size=100');
    expect(byBalance.list[0].id).toBe(rich.user.id);
    const balances = byBalance.list.map((x: { available: number }) => x.available);
    expect(balances).toEqual([...balances].sort((a, b) => b - a));
    const ascending = (await list('?sortBy=available&order=asc&size=100')).list;
    expect(ascending[ascending.length - 1].id).toBe(rich.user.id);
    expect((await req('GET', '/api/admin/user-management/users?sortBy=phone')).json().message).toContain(
      '参数 sortBy 无效',
    );
    const stats = (await req('GET', '/api/admin/user-management/statistics')).json().data;
    expect(stats.totalUsers).toBeGreaterThanOrEqual(1);
    expect(stats.newToday).toBeGreaterThanOrEqual(1);
  });

  it('powers off, starts and terminates a user instance with a reason: audited, user notified', async () => {
    const u = await running(100, 'managed');
    const list = (await req('GET', `/api/admin/user-management/instances?userId=${u.user.id}`)).json().data;
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ id: u.id, status: 'RUNNING', userPhone: u.user.phone, gpuCount: 1 });
    const act = (name: string, payload: object = { reason: '维护主机' }) =>
      req('POST', `/api/admin/user-management/instances/${u.id}/${name}`, adminHeaders(), payload);

    const noReason = await act('power-off', {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('参数 reason 无效：请填写操作原因');
    expect((await act('power-off', { reason: '   ' })).json().message).toContain('请填写操作原因');
    expect((await app().view(u.headers, u.id)).status).toBe('RUNNING');

    // Each answer is the transitional state; the job finishes it (and writes the notice).
    const off = await act('power-off');
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.status).toBe('STOPPING');
    expect((await act('power-off')).statusCode).toBe(409);
    await app().deps.jobs.drain();
    expect(await app().view(u.headers, u.id)).toMatchObject({
      status: 'STOPPED',
      stopReason: '管理员强制关机：维护主机',
    });
    expect((await act('power-off')).statusCode).toBe(409);
    expect((await act('start', { reason: '维护完成' })).json().data.status).toBe('STARTING');
    await app().deps.jobs.drain();
    expect((await app().view(u.headers, u.id)).status).toBe('RUNNING');
    expect((await act('terminate', { reason: '违规使用' })).json().data.status).toBe('RELEASING');
    await app().deps.jobs.drain();
    expect((await app().view(u.headers, u.id)).status).toBe('RELEASED');
    expect(await heldGpus(u.id)).toBe(0);

    const audits = await app()
      .t.db.select()
      .from(auditLog)
      .where(eq(auditLog.target, `instance:${u.id}`))
      .orderBy(auditLog.id);
    expect(audits.map((a) => a.action)).toEqual([
      'instances.admin_power_off',
      'instances.admin_start',
      'instances.admin_terminate',
    ]);
    expect(audits[0]?.detail).toMatchObject({
      reason: '维护主机',
      userId: u.user.id,
      before: { status: 'RUNNING' },
      after: { status: 'STOPPED' },
    });
    const events = await app().t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, u.id));
    expect(events.some((e) => e.actor.startsWith('admin:') && e.reason === '关机：维护主机')).toBe(true);

    const notices = await req('GET', '/api/user/notices?unread=true', u.headers);
    expect(notices.json().data.map((n: { title: string }) => n.title)).toEqual([
      '实例已被管理员终止',
      '实例已被管理员开机',
      '实例已被管理员关机',
    ]);
    expect(notices.json().data[2].body).toBe('您的实例「managed」已被管理员关机，原因：维护主机');
    // Another user cannot read or acknowledge them.
    const other = await app().t.createUser();
    expect((await req('GET', '/api/user/notices', other.headers)).json().data).toEqual([]);
    const firstId = notices.json().data[0].id;
    await req('POST', '/api/user/notices/read', other.headers, { id: firstId });
    expect((await req('GET', '/api/user/notices?unread=true', u.headers)).json().data).toHaveLength(3);
    await req('POST', '/api/user/notices/read', u.headers, { id: firstId });
    expect((await req('GET', '/api/user/notices?unread=true', u.headers)).json().data).toHaveLength(2);
    await req('POST', '/api/user/notices/read', u.headers, {});
    expect((await req('GET', '/api/user/notices?unread=true', u.headers)).json().data).toHaveLength(0);
    expect((await req('GET', '/api/user/notices', {})).statusCode).toBe(401);
  });

  it('answers 404 for unknown instances and users', async () => {
    for (const name of ['power-off', 'start', 'terminate']) {
      const res = await req('POST', `/api/admin/user-management/instances/999999/${name}`, adminHeaders(), {
        reason: 'x',
      });
      expect(res.statusCode, name).toBe(404);
      expect(res.json().message).toBe('实例不存在');
    }
    expect((await req('GET', '/api/admin/user-management/instances?userId=999999')).statusCode).toBe(404);
    const bad = await req('POST', '/api/admin/user-management/instances/abc/start', adminHeaders(), {
      reason: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('参数 id 无效');
  });
});

describe('instance monitor', () => {
  it('force-stop ends billing and frees the GPUs exactly once', async () => {
    const u = await running(100, 'forced');
    const listed = (await req('GET', '/api/admin/instance-monitor/running-instances?keyword=forced')).json()
      .data;
    expect(listed.list.map((i: { id: number }) => i.id)).toContain(u.id);
    expect(await heldGpus(u.id)).toBe(1);
    const before = (await req('GET', '/api/admin/instance-monitor/statistics')).json().data;
    expect(before.running).toBeGreaterThanOrEqual(1);
    const l40s = before.gpus.find((g: { model: string }) => g.model.includes('L40S'));
    expect(l40s.busy).toBeGreaterThanOrEqual(1);

    clock.advance(3600_000);

    await renewAdmin(); // admin tokens last an hour
    const noReason = await req('POST', `/api/admin/instance-monitor/force-stop/${u.id}`);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('参数 reason 无效：请填写操作原因');

    const url = `/api/admin/instance-monitor/force-stop/${u.id}?reason=${encodeURIComponent('欠费风险')}`;
    const stop = await req('POST', url);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().data.status).toBe('STOPPING');
    await app().deps.jobs.drain();
    expect(await app().view(u.headers, u.id)).toMatchObject({ status: 'STOPPED', charged: 3.98 });
    expect(await heldGpus(u.id)).toBe(0);
    expect(await app().balance(u.user.id)).toBe(96.02);

    // A second force-stop changes nothing; time passing charges nothing more.
    expect((await req('POST', url)).statusCode).toBe(409);
    clock.advance(3600_000);
    await renewAdmin(); // admin tokens last an hour
    await runMetering(app().deps);
    expect(await app().balance(u.user.id)).toBe(96.02);
    const charges = await app()
      .t.db.select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, u.user.id), eq(ledgerEntries.kind, 'charge')));
    expect(charges.reduce((s, e) => s + e.amount, 0)).toBe(-39_800);
    const audits = await app()
      .t.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'instances.force_stop'), eq(auditLog.target, `instance:${u.id}`)));
    expect(audits).toHaveLength(1);
    const after = (await req('GET', '/api/admin/instance-monitor/running-instances?keyword=forced')).json()
      .data;
    expect(after.list.map((i: { id: number }) => i.id)).not.toContain(u.id);
    const stats = (await req('GET', '/api/admin/instance-monitor/statistics')).json().data;
    expect(stats.revenueToday).toBeGreaterThanOrEqual(3.98);
    expect((await req('POST', '/api/admin/instance-monitor/force-stop/999999?reason=x')).statusCode).toBe(
      404,
    );
    // Two hours later the user's access token has expired: sign in again.
    const fresh = {
      authorization: `Bearer ${await app().t.userToken(u.user)}`,
      'x-tenant-host': 'localhost',
    };
    const notices = (await req('GET', '/api/user/notices', fresh)).json().data;
    expect(notices[0]).toMatchObject({ title: '实例已被管理员强制停止', instanceId: u.id, read: false });
  });
});
