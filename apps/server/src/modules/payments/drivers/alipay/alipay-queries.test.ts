import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../platform/clock.ts';
import { reconcileAccount } from '../../../ledger/ledger.ts';
import { closeExpiredRechargeOrders } from '../../tasks/close-expired-orders.task.ts';
import { reconcilePendingRechargeOrders } from '../../tasks/reconcile-pending-orders.task.ts';
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

  it('settles from trade.query during status polling, and a later notify credits nothing more', async () => {
    const { user, headers, order, trade } = await paidOrder(1000);
    clock.advance(6_000);
    expect(await statusOf(t, headers, order.orderNo)).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(1000);
    expect(await notify(t, gateway.notification(trade))).toBe('success');
    expect(await balanceOf(t, headers)).toBe(1000);
    expect((await reconcileAccount(t.db, user.id)).entries).toBe(1);
  });

  it('sends Alipay the subject "{tenant} 账户充值 ¥1,000.00", not the client\'s text', async () => {
    const { user, headers } = await t.createUser();
    const tenant = await t.app.deps.modules.tenants.service.resolve('localhost');
    expect(tenant.id).toBe(user.tenantId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/createQrCode',
      headers,
      payload: { amount: 1000, subject: '测试商品', body: '测试商品描述' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderNo } = res.json().data;
    const precreate = gateway.calls.find(
      (c) => c.method === 'alipay.trade.precreate' && c.bizContent.out_trade_no === orderNo,
    );
    expect(precreate?.validSignature).toBe(true);
    expect(precreate?.bizContent.subject).toBe(`${tenant.name} 账户充值 ¥1,000.00`);
    expect(precreate?.bizContent.body).toBe(`${tenant.name} 账户余额充值`);
    expect(gateway.trades.get(orderNo)?.subject).toBe(`${tenant.name} 账户充值 ¥1,000.00`);
    // The query-string recharge builds the same subject: ¥200.00 here.
    const viaQuery = await t.app.inject({ method: 'POST', url: '/api/user/recharge?amount=200', headers });
    expect(viaQuery.statusCode, viaQuery.body).toBe(200);
    expect(gateway.trades.get(viaQuery.json().data.orderNo)?.subject).toBe(`${tenant.name} 账户充值 ¥200.00`);
  });

  it('asks Alipay about one order at most every 5 s however often the page polls', async () => {
    const { headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    const queries = () => gateway.calls.filter((c) => c.method === 'alipay.trade.query').length;
    const before = queries();
    for (let i = 0; i < 5; i++) expect(await statusOf(t, headers, order.orderNo)).toBe('PENDING');
    expect(queries() - before).toBe(1);
    clock.advance(5_000);
    await statusOf(t, headers, order.orderNo);
    expect(queries() - before).toBe(2);
  });

  it('leaves the order pending while the gateway is slower than the timeout, until the reconcile task settles it', async () => {
    const { headers, order } = await paidOrder(200);
    gateway.state.delayMs = 5_000;
    try {
      clock.advance(6_000);
      const started = performance.now();
      expect(await statusOf(t, headers, order.orderNo)).toBe('PENDING');
      // Cut off by the 1 s timeout, well before the gateway's 5 s answer.
      expect(performance.now() - started).toBeLessThan(3_500);
      clock.advance(6_000);
      await reconcilePendingRechargeOrders(t.app.deps.modules.payments);
      expect((await orderRow(order.orderNo))?.status).toBe('PENDING');
    } finally {
      gateway.state.delayMs = 0;
    }
    // A gateway answering errors changes nothing either.
    gateway.state.failNext = 1_000;
    clock.advance(6_000);
    await reconcilePendingRechargeOrders(t.app.deps.modules.payments);
    gateway.state.failNext = 0;
    expect((await orderRow(order.orderNo))?.status).toBe('PENDING');
    clock.advance(6_000);
    const result = await reconcilePendingRechargeOrders(t.app.deps.modules.payments);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect((await orderRow(order.orderNo))?.status).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(200);
  });

  it('closes expired orders at Alipay with trade.close, and credits one paid in the last second', async () => {
    const { headers } = await t.createUser();
    const unpaid = await createOrder(t, headers, 200);
    gateway.scan(unpaid.orderNo);
    const lastSecond = await createOrder(t, headers, 300);
    clock.advance(600_000);
    gateway.pay(lastSecond.orderNo);
    await closeExpiredRechargeOrders(t.app.deps.modules.payments);
    expect(gateway.trades.get(unpaid.orderNo)?.status).toBe('TRADE_CLOSED');
    expect(
      gateway.calls.some(
        (c) => c.method === 'alipay.trade.close' && c.bizContent.out_trade_no === unpaid.orderNo,
      ),
    ).toBe(true);
    expect((await orderRow(unpaid.orderNo))?.status).toBe('CLOSED');
    expect((await orderRow(lastSecond.orderNo))?.status).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(300);
  });
});
