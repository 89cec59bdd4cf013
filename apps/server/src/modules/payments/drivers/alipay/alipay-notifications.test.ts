import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../platform/clock.ts';
import { reconcileAccount } from '../../../ledger/ledger.ts';
import { balanceOf, createOrder, statusOf, type TestApp } from '../payment-drivers.test-suite.ts';
import { alipayOrders, notify, START, startAlipayApp } from './alipay.test-helpers.ts';
import type { FakeAlipayGateway } from './fake-alipay-gateway.ts';

describe('alipay notifications and queries', () => {
  let gateway: FakeAlipayGateway;
  let t: TestApp;
  const clock = fixedClock(START);

  beforeAll(async () => {
    ({ gateway, t } = await startAlipayApp(clock));
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const { paidOrder, orderRow } = alipayOrders(
    () => t,
    () => gateway,
  );

  it('precreates with the SDK: signed request, amount in yuan, notify URL, QR string from Alipay', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 100000);
    expect(order.qrCode).toBe(`https://qr.alipay.com/fake${order.orderNo}`);
    const call = gateway.calls.findLast((c) => c.method === 'alipay.trade.precreate');
    expect(call).toMatchObject({
      validSignature: true,
      bizContent: {
        out_trade_no: order.orderNo,
        total_amount: '100000.00',
        subject: '算力云平台 账户充值 ¥100,000.00',
        body: '算力云平台 账户余额充值',
      },
    });
    expect(call?.bizContent.timeout_express).toBe('10m');
  });

  it('credits a valid notification once: 10 replays and 10 concurrent copies change nothing', async () => {
    const { user, headers, order, trade } = await paidOrder(500);
    const params = gateway.notification(trade);
    expect(await notify(t, params)).toBe('success');
    for (let i = 0; i < 10; i++) expect(await notify(t, params)).toBe('success');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => notify(t, gateway.notification(trade))),
    );
    expect(answers.every((a) => a === 'success')).toBe(true);
    expect(await balanceOf(t, headers)).toBe(500);
    expect(await statusOf(t, headers, order.orderNo)).toBe('SUCCESS');
    const rec = await reconcileAccount(t.db, user.id);
    expect(rec).toMatchObject({ balanced: true, entries: 1, available: 5_000_000 });
    expect((await orderRow(order.orderNo))?.providerTradeNo).toBe(trade.tradeNo);
  });

  it('also takes TRADE_FINISHED and amounts written without decimals', async () => {
    const { headers, trade } = await paidOrder(300);
    expect(
      await notify(t, gateway.notification(trade, { trade_status: 'TRADE_FINISHED', total_amount: '300' })),
    ).toBe('success');
    expect(await balanceOf(t, headers)).toBe(300);
  });

  it.each([
    [
      'a wrong amount',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) =>
        g.notification(tr, { total_amount: '200.01' }),
    ],
    [
      'a malformed amount',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) =>
        g.notification(tr, { total_amount: '2e2' }),
    ],
    [
      'a wrong app_id',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) =>
        g.notification(tr, { app_id: '2021000000000999' }),
    ],
    [
      'a wrong seller',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) =>
        g.notification(tr, { seller_id: '2088000000000999' }),
    ],
    [
      'a signature by another key',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) =>
        g.notification(tr, {}, { signWith: 'other' }),
    ],
    [
      'a field changed after signing',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) => ({
        ...g.notification(tr),
        total_amount: '2000.00',
      }),
    ],
    [
      'no signature',
      (g: FakeAlipayGateway, tr: Parameters<FakeAlipayGateway['notification']>[0]) => {
        const { sign: _sign, ...rest } = g.notification(tr);
        return rest;
      },
    ],
  ])('credits nothing for %s and answers fail', async (_name, build) => {
    const { user, headers, order, trade } = await paidOrder(200);
    expect(await notify(t, build(gateway, trade))).toBe('fail');
    expect(await balanceOf(t, headers)).toBe(0);
    expect((await orderRow(order.orderNo))?.status).toBe('PENDING');
    expect((await reconcileAccount(t.db, user.id)).entries).toBe(0);
  });

  it('credits nothing for an unknown order, or a form that is not a notification', async () => {
    const { trade } = await paidOrder(200);
    expect(
      await notify(t, gateway.notification({ ...trade, outTradeNo: 'RC20261122000000AAAAAAAAAAAA' })),
    ).toBe('fail');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/alipay/notify',
      payload: { foo: 'bar' },
    });
    expect(res.body).toBe('fail');
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/pay/alipay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(empty.body).toBe('fail');
  });

  it('closes the order on TRADE_CLOSED and credits nothing', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    const trade = gateway.scan(order.orderNo);
    if (!trade) throw new Error('trade missing');
    trade.status = 'TRADE_CLOSED';
    expect(await notify(t, gateway.notification(trade))).toBe('success');
    expect(await statusOf(t, headers, order.orderNo)).toBe('FAIL');
    expect((await orderRow(order.orderNo))?.status).toBe('CLOSED');
    expect(await balanceOf(t, headers)).toBe(0);
    // WAIT_BUYER_PAY is acknowledged and changes nothing.
    const waiting = await createOrder(t, headers, 200);
    const w = gateway.scan(waiting.orderNo);
    if (!w) throw new Error('trade missing');
    expect(await notify(t, gateway.notification(w))).toBe('success');
    expect((await orderRow(waiting.orderNo))?.status).toBe('PENDING');
  });

  it('credits a genuine payment notified after the order was closed here (the money arrived)', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    gateway.state.failNext = 1; // the query fails, so no close either: closed here, still open at Alipay
    clock.advance(600_000);
    expect(await statusOf(t, headers, order.orderNo)).toBe('FAIL');
    const trade = gateway.pay(order.orderNo);
    if (!trade) throw new Error('trade missing');
    expect(await notify(t, gateway.notification(trade))).toBe('success');
    expect(await statusOf(t, headers, order.orderNo)).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(200);
  });

  it('answers 502 with the SPEC message when precreate fails, and marks the order FAIL', async () => {
    const { headers } = await t.createUser();
    gateway.state.failNext = 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/createQrCode',
      headers,
      payload: { amount: 200 },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, code: '502', msg: '支付二维码生成失败，请重试' });
    const list = await t.app.inject({ method: 'GET', url: '/api/recharge/orders', headers });
    expect(list.json().data.list[0].status).toBe('FAIL');
  });
});
