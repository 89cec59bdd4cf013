import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../platform/clock.ts';
import { createTestApp, testConfig } from '../../../../test/test-app.ts';
import { reconcileAccount } from '../../../billing/ledger.ts';
import { rechargeOrders } from '../../payments.tables.ts';
import { closeExpiredRechargeOrders } from '../../tasks/close-expired-orders.task.ts';
import { reconcilePendingRechargeOrders } from '../../tasks/reconcile-pending-orders.task.ts';
import {
  balanceOf,
  createOrder,
  paymentProviderContract,
  statusOf,
  type TestApp,
} from '../payment-drivers.test-suite.ts';
import { createPaymentDriver } from '../registry.ts';
import { type FakeAlipayGateway, startFakeAlipayGateway } from './fake-alipay-gateway.ts';

const START = '2026-11-22T08:00:00Z';

async function notify(t: TestApp, params: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/pay/alipay/notify',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: new URLSearchParams(params).toString(),
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
}

paymentProviderContract('alipay (local fake gateway)', async () => {
  const gateway = await startFakeAlipayGateway();
  const clock = fixedClock(START);
  const t = await createTestApp({ clock, demo: false, config: gateway.config });
  return {
    t,
    clock,
    // The customer scans and pays at Alipay; Alipay posts its notification.
    pay: async (order) => {
      const trade = gateway.pay(order.orderNo);
      if (trade) expect(await notify(t, gateway.notification(trade))).toBe('success');
    },
    close: async () => {
      await t.close();
      await gateway.close();
    },
  };
});

describe('alipay notifications and queries', () => {
  let gateway: FakeAlipayGateway;
  let t: TestApp;
  const clock = fixedClock(START);

  beforeAll(async () => {
    gateway = await startFakeAlipayGateway();
    // Short enough for the slow-gateway test, long enough that a loaded runner's precreate on
    // loopback never hits it (300 ms did: a 502 for a QR code in CI).
    t = await createTestApp({ clock, demo: false, config: { ...gateway.config, ALIPAY_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  async function paidOrder(amount = 200) {
    const { user, headers } = await t.createUser();
    const order = await createOrder(t, headers, amount);
    const trade = gateway.pay(order.orderNo);
    if (!trade) throw new Error('trade missing');
    return { user, headers, order, trade };
  }
  const orderRow = async (orderNo: string) =>
    (await t.db.select().from(rechargeOrders).where(eq(rechargeOrders.orderNo, orderNo)))[0];

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
        subject: '测试商品',
        body: '测试商品描述',
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

  it('settles from trade.query during status polling, and a later notify credits nothing more', async () => {
    const { user, headers, order, trade } = await paidOrder(1000);
    clock.advance(6_000);
    expect(await statusOf(t, headers, order.orderNo)).toBe('SUCCESS');
    expect(await balanceOf(t, headers)).toBe(1000);
    expect(await notify(t, gateway.notification(trade))).toBe('success');
    expect(await balanceOf(t, headers)).toBe(1000);
    expect((await reconcileAccount(t.db, user.id)).entries).toBe(1);
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
      await reconcilePendingRechargeOrders(t.app.deps.payments);
      expect((await orderRow(order.orderNo))?.status).toBe('PENDING');
    } finally {
      gateway.state.delayMs = 0;
    }
    // A gateway answering errors changes nothing either.
    gateway.state.failNext = 1_000;
    clock.advance(6_000);
    await reconcilePendingRechargeOrders(t.app.deps.payments);
    gateway.state.failNext = 0;
    expect((await orderRow(order.orderNo))?.status).toBe('PENDING');
    clock.advance(6_000);
    const result = await reconcilePendingRechargeOrders(t.app.deps.payments);
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
    await closeExpiredRechargeOrders(t.app.deps.payments);
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

describe('alipay settings', () => {
  it('takes PKCS#1, PKCS#8 and bare base64 keys with \\n escapes, and refuses broken ones', async () => {
    const gateway = await startFakeAlipayGateway();
    try {
      const db = {} as never;
      const variants = [
        gateway.config.ALIPAY_PRIVATE_KEY,
        gateway.appPrivateKeyPkcs1,
        gateway.config.ALIPAY_PRIVATE_KEY?.replaceAll('\n', '\\n'),
        gateway.appPrivateKeyPkcs1
          .split('\n')
          .filter((l) => l && !l.startsWith('-----'))
          .join(''),
        gateway.config.ALIPAY_PRIVATE_KEY?.split('\n')
          .filter((l) => l && !l.startsWith('-----'))
          .join(''),
      ];
      for (const key of variants) {
        const driver = createPaymentDriver(
          testConfig({ ...gateway.config, ALIPAY_PRIVATE_KEY: key as string }),
          { db },
        );
        const qr = await driver.createQr({
          orderNo: `RC${Date.now()}${Math.random().toString().slice(2, 8)}`,
          amount: 1_000_000,
          subject: 's',
          body: 'b',
          expiresAt: new Date(),
        });
        expect(qr.qrCode).toContain('fake');
      }
      expect(gateway.calls.every((c) => c.validSignature)).toBe(true);
      expect(() =>
        createPaymentDriver(testConfig({ ...gateway.config, ALIPAY_PRIVATE_KEY: 'bm90IGEga2V5' }), { db }),
      ).toThrow(/ALIPAY_PRIVATE_KEY/);
      expect(() =>
        createPaymentDriver(testConfig({ ...gateway.config, ALIPAY_PUBLIC_KEY: 'bm90IGEga2V5' }), { db }),
      ).toThrow(/ALIPAY_PUBLIC_KEY/);
    } finally {
      await gateway.close();
    }
  });

  it('refuses answers not signed by Alipay', async () => {
    const gateway = await startFakeAlipayGateway();
    const other = await startFakeAlipayGateway();
    try {
      // Our settings trust `other`'s Alipay key, but talk to `gateway`.
      const driver = createPaymentDriver(
        testConfig({ ...gateway.config, ALIPAY_PUBLIC_KEY: other.config.ALIPAY_PUBLIC_KEY as string }),
        { db: {} as never },
      );
      await expect(driver.query('RC1')).rejects.toThrow(/验签失败|sign/);
    } finally {
      await gateway.close();
      await other.close();
    }
  });

  it('needs app id and keys, and a public address in production', () => {
    expect(() => testConfig({ PAYMENT_PROVIDER: 'alipay' })).toThrow(
      /ALIPAY_APP_ID: 使用支付宝支付时必须设置/,
    );
    expect(() =>
      testConfig({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'alipay',
        ALIPAY_APP_ID: '2021000000000001',
        ALIPAY_PRIVATE_KEY: 'x',
        ALIPAY_PUBLIC_KEY: 'y',
      }),
    ).toThrow(/PUBLIC_BASE_URL/);
  });
});
