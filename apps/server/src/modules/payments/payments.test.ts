import { rechargeMessages } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { balanceOf, createOrder, type Headers, statusOf } from './drivers/payment-drivers.test-suite.ts';
import { rechargeOrders } from './payments.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const createQr = (headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/pay/createQrCode', headers, payload: payload as object });
const pay = (order: { qrCode: string }) =>
  t.app.inject({ method: 'POST', url: new URL(order.qrCode).pathname });
/** What a recharge order's creation answers, through either endpoint (SPEC §7). */
const QR_ANSWER = {
  success: true,
  code: '200',
  message: '二维码生成成功',
  msg: '二维码生成成功',
  data: {
    qrCode: expect.stringMatching(/^http:\/\/localhost:8080\/api\/pay\/simulated\/RC/),
    orderNo: expect.any(String),
  },
};
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

describe('POST /api/pay/createQrCode', () => {
  it('answers code, data.qrCode, data.orderNo and msg, and stores a PENDING order expiring in 600 s', async () => {
    const { user, headers } = await t.createUser();
    const res = await createQr(headers, { amount: 200 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual(QR_ANSWER);
    const [row] = await t.db
      .select()
      .from(rechargeOrders)
      .where(eq(rechargeOrders.orderNo, body.data.orderNo));
    expect(row).toMatchObject({
      userId: user.id,
      tenantId: user.tenantId,
      amount: 2_000_000,
      status: 'PENDING',
      provider: 'simulated',
      paymentType: 'alipay',
      // The default tenant's name (demo-less apps keep the defaults).
      subject: '算力云平台 账户充值 ¥200.00',
      body: '算力云平台 账户余额充值',
      qrCode: body.data.qrCode,
    });
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(600_000);
  });

  it.each([
    [{ amount: 99 }, rechargeMessages.amountMin],
    [{ amount: 0 }, rechargeMessages.amountMin],
    [{ amount: -500 }, rechargeMessages.amountMin],
    [{ amount: 100001 }, rechargeMessages.amountMax],
    [{ amount: 150.5 }, rechargeMessages.amountInteger],
    [{ amount: 'abc' }, rechargeMessages.amountInvalid],
    [{ amount: null }, rechargeMessages.amountInvalid],
    [{}, rechargeMessages.amountInvalid],
    [{ amount: 200, type: 'wechat' }, rechargeMessages.typeInvalid],
  ])('refuses %o with 400 and the SPEC message', async (payload, message) => {
    const { headers } = await t.createUser();
    const res = await createQr(headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: '400', data: null });
    expect(res.json().message).toContain(message);
    expect(res.json().msg).toBe(res.json().message);
  });

  it('takes the limits 100 and 100000; a JSON amount is a number, never a string (SPEC §7)', async () => {
    const { headers } = await t.createUser();
    for (const amount of [100, 100000]) expect((await createQr(headers, { amount })).statusCode).toBe(200);
    for (const amount of ['300', '1e2']) expect((await createQr(headers, { amount })).statusCode).toBe(400);
  });

  it('needs a login, and says so with msg too', async () => {
    const res = await createQr({}, { amount: 200 });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '401', msg: res.json().message });
  });

  it('limits a user to 10 pending orders and 30 orders an hour', async () => {
    const { headers } = await t.createUser();
    for (let i = 0; i < 10; i++) expect((await createQr(headers, { amount: 100 })).statusCode).toBe(200);
    const tooMany = await createQr(headers, { amount: 100 });
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().msg).toBe('待支付的充值订单过多，请完成支付或等待订单关闭后再试');
    // Another user is not affected.
    expect((await createQr((await t.createUser()).headers, { amount: 100 })).statusCode).toBe(200);

    let created = 10;
    while (created < 30) {
      clock.advance(601_000);
      for (let i = 0; i < 10 && created < 30; i++, created++) {
        expect((await createQr(headers, { amount: 100 })).statusCode).toBe(200);
      }
    }
    clock.advance(601_000);
    const hourly = await createQr(headers, { amount: 100 });
    expect(hourly.statusCode).toBe(429);
    expect(hourly.json().message).toBe('充值下单过于频繁，请稍后再试');
    clock.advance(3600_000);
    expect((await createQr(headers, { amount: 100 })).statusCode).toBe(200);
  });

  it('does not let concurrent requests slip past the pending limit', async () => {
    const { headers } = await t.createUser();
    const codes = await Promise.all(Array.from({ length: 15 }, () => createQr(headers, { amount: 100 })));
    expect(codes.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(codes.filter((r) => r.statusCode === 429)).toHaveLength(5);
  });
});

describe('POST /api/user/recharge (query amount)', () => {
  const userRecharge = (headers: Headers, query: string) =>
    t.app.inject({ method: 'POST', url: `/api/user/recharge${query}`, headers });

  it('creates the same PENDING order as createQrCode and answers the same shape; no money moves', async () => {
    const { user, headers } = await t.createUser();
    const res = await userRecharge(headers, '?amount=500');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual(QR_ANSWER);
    const [row] = await t.db
      .select()
      .from(rechargeOrders)
      .where(eq(rechargeOrders.orderNo, body.data.orderNo));
    expect(row).toMatchObject({ userId: user.id, amount: 5_000_000, status: 'PENDING' });
    expect(row?.subject).toBe('算力云平台 账户充值 ¥500.00');
    expect(await balanceOf(t, headers)).toBe(0);
    // Paying it credits like any order.
    expect((await pay(body.data)).statusCode).toBe(200);
    expect(await balanceOf(t, headers)).toBe(500);
    expect((await userRecharge(headers, '?amount=100')).statusCode).toBe(200);
    expect((await userRecharge(headers, '?amount=100000')).statusCode).toBe(200);
  });

  it.each([
    ['', '请输入有效的充值金额'],
    ['?amount=', rechargeMessages.amountInteger],
    ['?amount=abc', rechargeMessages.amountInteger],
    ['?amount=99', rechargeMessages.amountMin],
    ['?amount=100001', rechargeMessages.amountMax],
    ['?amount=100.5', rechargeMessages.amountInteger],
    ['?amount=1e3', rechargeMessages.amountInteger],
    ['?amount=-100', rechargeMessages.amountInteger],
    ['?amount=%20200', rechargeMessages.amountInteger],
    ['?amount=99999999999999999999', rechargeMessages.amountInteger],
  ])('refuses %s with a 400 naming amount and creates nothing', async (query, message) => {
    const { user, headers } = await t.createUser();
    const res = await userRecharge(headers, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('amount');
    expect(res.json().message).toContain(message);
    expect(await t.db.$count(rechargeOrders, eq(rechargeOrders.userId, user.id))).toBe(0);
  });

  it('needs a login and shares the per-user pending limit with createQrCode', async () => {
    expect((await userRecharge({}, '?amount=200')).statusCode).toBe(401);
    const { headers } = await t.createUser();
    for (let i = 0; i < 5; i++) expect((await createQr(headers, { amount: 100 })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await userRecharge(headers, '?amount=100')).statusCode).toBe(200);
    const tooMany = await userRecharge(headers, '?amount=100');
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().msg).toBe('待支付的充值订单过多，请完成支付或等待订单关闭后再试');
  });
});

describe('GET /api/pay/status', () => {
  it('answers PENDING, then SUCCESS after payment, with msg', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    const res = await get(`/api/pay/status?outTradeNo=${order.orderNo}`, headers);
    expect(res.json()).toEqual({ success: true, code: '200', message: '成功', msg: '成功', data: 'PENDING' });
    await pay(order);
    expect(await statusOf(t, headers, order.orderNo)).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(200);
  });

  it('answers FAIL once an unpaid order is 600 s old, and the balance stays', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    clock.advance(600_000);
    expect(await statusOf(t, headers, order.orderNo)).toBe('FAIL');
    expect((await pay(order)).body).toContain('订单已关闭');
    expect(await balanceOf(t, headers)).toBe(0);
  });

  it('is for the owner only: another user, another tenant or no login get nothing', async () => {
    const owner = await t.createUser();
    const order = await createOrder(t, owner.headers, 200);
    const other = await t.createUser();
    const res = await get(`/api/pay/status?outTradeNo=${order.orderNo}`, other.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: '404', message: '充值订单不存在', msg: '充值订单不存在' });
    const foreign = await t.createUser({ host: '127.0.0.1' });
    expect((await get(`/api/pay/status?outTradeNo=${order.orderNo}`, foreign.headers)).statusCode).toBe(404);
    expect(
      (
        await get(`/api/pay/status?outTradeNo=${order.orderNo}`, {
          ...owner.headers,
          'x-tenant-host': '127.0.0.1',
        })
      ).statusCode,
    ).toBe(401);
    expect((await get(`/api/pay/status?outTradeNo=${order.orderNo}`, {})).statusCode).toBe(401);
    expect((await get('/api/pay/status?outTradeNo=', owner.headers)).statusCode).toBe(400);
    expect((await get('/api/pay/status?outTradeNo=a%27b', owner.headers)).statusCode).toBe(400);
    expect(await statusOf(t, owner.headers, order.orderNo)).toBe('PENDING');
  });
});

describe('recharge orders', () => {
  it('lists the user’s orders, newest first, paged, filtered by status and date', async () => {
    clock.set('2026-12-01T02:00:00Z'); // 10:00 China time, 1 December
    const { headers } = await t.createUser();
    const a = await createOrder(t, headers, 100);
    clock.advance(1000);
    const b = await createOrder(t, headers, 200);
    await pay(b);
    clock.advance(1000);
    const c = await createOrder(t, headers, 300);
    // Made at 01:00 China time on 3 December (moved there, as tokens would expire with the clock).
    await t.db
      .update(rechargeOrders)
      .set({ createdAt: new Date('2026-12-02T17:00:00Z') })
      .where(eq(rechargeOrders.orderNo, c.orderNo));
    await t.createUser().then((o) => createOrder(t, o.headers, 500)); // someone else's

    const all = (await get('/api/recharge/orders', headers)).json().data;
    expect(all).toMatchObject({ total: 3, page: 1, size: 10 });
    expect(all.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([c.orderNo, b.orderNo, a.orderNo]);
    expect(all.list[1]).toMatchObject({
      amount: 200,
      status: 'SUCCESS',
      paymentType: 'alipay',
      provider: 'simulated',
      subject: '算力云平台 账户充值 ¥200.00',
      providerTradeNo: `SIM${b.orderNo}`,
      closedAt: null,
    });
    expect(all.list[1].paidAt).toBe(all.list[1].createdAt);
    expect(all.list[1].expiresAt).toBe('2026-12-01T02:10:01.000Z');

    const page2 = (await get('/api/recharge/orders?page=2&size=2', headers)).json().data;
    expect(page2).toMatchObject({ total: 3, page: 2, size: 2 });
    expect(page2.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([a.orderNo]);

    const success = (await get('/api/recharge/orders?status=SUCCESS', headers)).json().data;
    expect(success.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([b.orderNo]);

    const dec1 = (await get('/api/recharge/orders?startDate=2026-12-01&endDate=2026-12-01', headers)).json()
      .data;
    expect(dec1.total).toBe(2);
    const dec3 = (await get('/api/recharge/orders?startDate=2026-12-03', headers)).json().data;
    expect(dec3.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([c.orderNo]);
    const instant = (
      await get(
        `/api/recharge/orders?startDate=${encodeURIComponent('2026-12-01T02:00:01Z')}&endDate=${encodeURIComponent('2026-12-01T10:00:01+08:00')}`,
        headers,
      )
    ).json().data;
    expect(instant.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([b.orderNo]);

    for (const q of ['page=0', 'size=101', 'status=PAID', 'startDate=yesterday', 'endDate=2026-13-45x']) {
      expect((await get(`/api/recharge/orders?${q}`, headers)).statusCode, q).toBe(400);
    }
    expect((await get('/api/recharge/orders', {})).statusCode).toBe(401);
  });

  it('shows one order by id or order number to its owner only', async () => {
    const owner = await t.createUser();
    const order = await createOrder(t, owner.headers, 300);
    const byNo = (await get(`/api/recharge/orders/${order.orderNo}`, owner.headers)).json().data;
    expect(byNo).toMatchObject({ orderNo: order.orderNo, amount: 300, status: 'PENDING' });
    const byId = await get(`/api/recharge/orders/${byNo.id}`, owner.headers);
    expect(byId.json().data).toEqual(byNo);

    const other = await t.createUser();
    expect((await get(`/api/recharge/orders/${byNo.id}`, other.headers)).statusCode).toBe(404);
    expect((await get(`/api/recharge/orders/${order.orderNo}`, other.headers)).statusCode).toBe(404);
    const foreign = await t.createUser({ host: '127.0.0.1' });
    expect((await get(`/api/recharge/orders/${byNo.id}`, foreign.headers)).statusCode).toBe(404);
    expect((await get('/api/recharge/orders/999999', owner.headers)).json().message).toBe('充值订单不存在');
  });
});
