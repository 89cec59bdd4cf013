import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { type H, T0, voucherCalls } from './vouchers.test-helpers.ts';

const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

const { inject, config, distribute } = voucherCalls(
  () => h,
  () => admin,
);

describe('skipped phones of a distribution', () => {
  it('names each phone it skips, with why, in the order given, and issues to the rest', async () => {
    const ok = await h.funded(0);
    const held = await h.funded(0);
    const off = await h.funded(0);
    await h.t.db.update(users).set({ status: 'DISABLED' }).where(eq(users.id, off.user.id));
    // An account of another tenant: named when the distribution is for the home tenant.
    const [home] = await h.t.db.select().from(tenants).where(eq(tenants.id, ok.user.tenantId));
    const [other] = await h.t.db
      .insert(tenants)
      .values({ code: 'skip-other', name: '另一租户', config: home?.config as never })
      .returning();
    const [elsewhere] = await h.t.db
      .insert(users)
      .values({ tenantId: other?.id as number, phone: '13700000001', username: 'x1', passwordHash: 'x' })
      .returning();
    const { id: configId } = await config({});
    await distribute(configId, [held.user.phone]);

    const phones = [
      ok.user.phone,
      'abc123',
      ok.user.phone,
      '13000000009',
      elsewhere?.phone as string,
      off.user.phone,
      held.user.phone,
    ];
    const target = { type: 'phones', phones, tenantId: ok.user.tenantId };
    const expected = [
      { phone: 'abc123', reason: 'invalid' },
      { phone: ok.user.phone, reason: 'duplicate' },
      { phone: '13000000009', reason: 'not_registered' },
      { phone: '13700000001', reason: 'other_tenant' },
      { phone: off.user.phone, reason: 'disabled' },
      { phone: held.user.phone, reason: 'at_limit' },
    ];
    const preview = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ count: 2, atLimit: 1, skipped: expected });

    const res = await inject('POST', '/api/admin/voucher-distribution/execute', admin, {
      configId,
      requestId: 'skips-0001-abcd',
      target,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ targetCount: 2, issuedCount: 1, skipped: expected });
    const [audit] = await h.t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `voucher-distribution:${data.id}`));
    expect(audit?.detail).toMatchObject({ skipped: expected });

    // A repeat issues nothing and has nothing new to skip.
    const again = await inject('POST', '/api/admin/voucher-distribution/execute', admin, {
      configId,
      requestId: 'skips-0001-abcd',
      target,
    });
    expect(again.json().data).toMatchObject({ id: data.id, issuedCount: 1, skipped: [] });
  });

  it('without a tenant a phone reaches its account in any tenant; a bad list is still a 400', async () => {
    const u = await h.funded(0);
    const { id: configId } = await config({});
    const res = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'phones', phones: [u.user.phone, '13700000001'] },
    });
    expect(res.json().data).toMatchObject({ count: 2, skipped: [] });
    const empty = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'phones', phones: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('请至少填写一个手机号');
    const long = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'phones', phones: ['1'.repeat(40)] },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('手机号过长');
  });
});
