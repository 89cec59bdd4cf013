import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { fixedClock } from '../../../../platform/clock.ts';
import { createTestApp } from '../../../../test/test-app.ts';
import { rechargeOrders } from '../../payments.tables.ts';
import { createOrder, type TestApp } from '../payment-drivers.test-suite.ts';
import { type FakeAlipayGateway, startFakeAlipayGateway } from './fake-alipay-gateway.ts';

export const START = '2026-11-22T08:00:00Z';

export async function notify(t: TestApp, params: Record<string, string>) {
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

/** A fake Alipay gateway and an app that pays through it, on `clock`. */
export async function startAlipayApp(clock: ReturnType<typeof fixedClock>) {
  const gateway = await startFakeAlipayGateway();
  // Short enough for the slow-gateway test, long enough that a loaded runner's precreate on
  // loopback never hits it (300 ms did: a 502 for a QR code in CI).
  const t = await createTestApp({
    clock,
    demo: false,
    config: { ...gateway.config, ALIPAY_TIMEOUT_MS: '1000' },
  });
  return { gateway, t };
}

/**
 * Orders paid at the gateway and their rows, against one test file's app and gateway. Each file
 * passes its own: test files share modules in a worker (isolate: false).
 */
export function alipayOrders(app: () => TestApp, gateway: () => FakeAlipayGateway) {
  async function paidOrder(amount = 200) {
    const t = app();
    const { user, headers } = await t.createUser();
    const order = await createOrder(t, headers, amount);
    const trade = gateway().pay(order.orderNo);
    if (!trade) throw new Error('trade missing');
    return { user, headers, order, trade };
  }
  const orderRow = async (orderNo: string) =>
    (await app().db.select().from(rechargeOrders).where(eq(rechargeOrders.orderNo, orderNo)))[0];

  return { paidOrder, orderRow };
}
