import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../audit/audit.tables.ts';
import { instances } from '../instances/instances.tables.ts';
import { operationsSuite } from './operations.test-helpers.ts';

const { h: app, admin: adminHeaders, req, running } = operationsSuite();

describe("an administrator resets a user's instance", () => {
  it('only once powered off, with a reason: a new container, audited, the owner told', async () => {
    const u = await running(100, 'admin-reset');
    const act = (payload: object = { reason: '系统损坏，协助重置' }) =>
      req('POST', `/api/admin/user-management/instances/${u.id}/reset-system`, adminHeaders(), payload);
    const containerOf = async () =>
      (await app().t.db.select().from(instances).where(eq(instances.id, u.id)))[0]?.containerId;

    expect((await act({})).statusCode).toBe(400);
    const refused = await act();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('实例当前运行中，无法重置系统');
    expect(
      (
        await req('POST', '/api/admin/user-management/instances/999999/reset-system', adminHeaders(), {
          reason: 'x',
        })
      ).statusCode,
    ).toBe(404);

    await app().action(u.headers, 'power_off', u.id);
    const before = await containerOf();
    const res = await act();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('RESETTING');
    await app().deps.jobs.drain();
    expect((await app().view(u.headers, u.id)).status).toBe('STOPPED');
    expect(await containerOf()).not.toBe(before);

    const audits = await app()
      .t.db.select()
      .from(auditLog)
      .where(eq(auditLog.target, `instance:${u.id}`));
    expect(audits.map((a) => a.action)).toEqual(['instances.admin_reset']);
    expect(audits[0]?.detail).toMatchObject({
      reason: '系统损坏，协助重置',
      userId: u.user.id,
      before: { status: 'STOPPED' },
      after: { status: 'STOPPED' },
    });
    const notices = await req('GET', '/api/user/notices?unread=true', u.headers);
    expect(notices.json().data.map((n: { title: string }) => n.title)).toEqual(['实例系统已被管理员重置']);
    await app().action(u.headers, 'release', u.id);
  });
});
