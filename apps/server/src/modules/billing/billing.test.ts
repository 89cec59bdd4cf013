import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { postLedgerEntry, reconcileAccount } from '../ledger/ledger.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;

beforeAll(async () => {
  t = await createTestApp({ demo: false });
});
afterAll(() => t.close());

const credit = (userId: number, amount: number) =>
  t.db.transaction((tx) =>
    postLedgerEntry(tx, { userId, kind: 'recharge', amount, idempotencyKey: `seed:${userId}:${amount}` }),
  );
const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('balance', () => {
  it('answers available, frozen and total in yuan', async () => {
    const { user, headers } = await t.createUser();
    await credit(user.id, 1_234_567);
    expect((await get('/api/user/balance', headers)).json()).toEqual({
      success: true,
      code: '200',
      message: '成功',
      data: { available: 123.4567, frozen: 0, total: 123.4567 },
    });
    expect((await get('/api/user/balance', {})).statusCode).toBe(401);
  });

  it('checks whether the available balance covers an amount', async () => {
    const { user, headers } = await t.createUser();
    await credit(user.id, 2_000_000);
    expect((await get('/api/user/balance/check?amount=200', headers)).json().data).toEqual({
      sufficient: true,
      available: 200,
      required: 200,
    });
    expect((await get('/api/user/balance/check?amount=200.0001', headers)).json().data).toEqual({
      sufficient: false,
      available: 200,
      required: 200.0001,
    });
    for (const bad of ['abc', '-1', '1.00001', '']) {
      const res = await get(`/api/user/balance/check?amount=${bad}`, headers);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('amount');
    }
    expect((await get('/api/user/balance/check?amount=1', {})).statusCode).toBe(401);
  });
});

describe('admin balance adjustment', () => {
  const adjust = async (userId: number, payload: object, headers?: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${userId}/balance-adjustment`,
      headers: headers ?? (await t.adminHeaders()),
      payload,
    });

  it('posts an adjustment entry and an audit row; a retried request counts once', async () => {
    const { user, headers } = await t.createUser();
    const res = await adjust(user.id, { amount: 88.5, reason: '补偿', requestId: 'req-000001' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '余额已调整', data: { available: 88.5, total: 88.5 } });
    const again = await adjust(user.id, { amount: 88.5, reason: '补偿', requestId: 'req-000001' });
    expect(again.json()).toMatchObject({ message: '该调整已处理过，未重复记账', data: { available: 88.5 } });
    expect((await get('/api/user/balance', headers)).json().data.available).toBe(88.5);

    const [entry] = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(entry).toMatchObject({
      kind: 'adjustment',
      amount: 885_000,
      memo: '补偿',
      referenceType: 'admin',
    });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'billing.balance_adjustment'), eq(auditLog.target, `user:${user.id}`)));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.detail).toMatchObject({ amount: 88.5, reason: '补偿', ledgerEntryId: entry?.id });

    expect((await adjust(user.id, { amount: -8.5, reason: '冲正' })).json().data.available).toBe(80);
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(true);
  });

  it('refuses to take the balance below zero, bad input, unknown users and non-admins', async () => {
    const { user, headers } = await t.createUser();
    const below = await adjust(user.id, { amount: -1, reason: '扣减' });
    expect(below.statusCode).toBe(422);
    expect(below.json().message).toBe('账户余额不足，请先充值');
    expect((await adjust(user.id, { amount: 0, reason: 'x' })).json().message).toContain('调整金额不能为0');
    expect((await adjust(user.id, { amount: 1.00001, reason: 'x' })).json().message).toContain('4位小数');
    expect((await adjust(user.id, { amount: 1, reason: ' ' })).json().message).toContain('请填写调整原因');
    expect((await adjust(999_999, { amount: 1, reason: 'x' })).statusCode).toBe(404);
    expect((await adjust(user.id, { amount: 1, reason: 'x' }, headers)).statusCode).toBe(401);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${user.id}`));
    expect(audits).toHaveLength(0);
  });
});
