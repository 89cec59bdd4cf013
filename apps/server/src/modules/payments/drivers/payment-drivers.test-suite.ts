import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { fixedClock } from '../../../platform/clock.ts';
import type { createTestApp } from '../../../test/test-app.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { reconcileAccount } from '../../ledger/ledger.ts';
import { closeExpiredRechargeOrders } from '../tasks/close-expired-orders.task.ts';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
export type Headers = Record<string, string>;
export interface CreatedOrder {
  orderNo: string;
  qrCode: string;
}

/** What a provider's contract run needs: the app on it, and the customer's side of paying. */
export interface PaymentHarness {
  t: TestApp;
  clock: ReturnType<typeof fixedClock>;
  /** The customer pays through the provider, and the provider tells us as it would. */
  pay(order: CreatedOrder): Promise<void>;
  close(): Promise<void>;
}

export async function createOrder(t: TestApp, headers: Headers, amount = 200): Promise<CreatedOrder> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/pay/createQrCode',
    headers,
    payload: { amount },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export async function statusOf(t: TestApp, headers: Headers, orderNo: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/api/pay/status?outTradeNo=${orderNo}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export async function balanceOf(t: TestApp, headers: Headers): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/user/balance', headers })).json().data.available;
}

/** One contract, every payment provider (DESIGN §2): run by each driver's test file. */
export function paymentProviderContract(name: string, setup: () => Promise<PaymentHarness>) {
  describe(`payment provider contract: ${name}`, () => {
    let h: PaymentHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it('creates a pending order with a QR string and the SPEC answer shape', async () => {
      const { headers } = await h.t.createUser();
      const res = await h.t.app.inject({
        method: 'POST',
        url: '/api/pay/createQrCode',
        headers,
        payload: { amount: 500, subject: '充值', body: '余额充值', type: 'alipay' },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, code: '200', msg: body.message });
      expect(body.data.qrCode).toMatch(/^https?:\/\//);
      expect(body.data.orderNo).toMatch(/^RC\d{14}[0-9A-F]{12}$/);
      expect(await statusOf(h.t, headers, body.data.orderNo)).toBe('PENDING');
      expect(await balanceOf(h.t, headers)).toBe(0);
    });

    it('credits a payment exactly once, however often the provider repeats it', async () => {
      const { user, headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers, 200);
      await h.pay(order);
      expect(await statusOf(h.t, headers, order.orderNo)).toBe('SUCCESS');
      expect(await balanceOf(h.t, headers)).toBe(200);
      await h.pay(order);
      await Promise.all(Array.from({ length: 10 }, () => h.pay(order)));
      expect(await balanceOf(h.t, headers)).toBe(200);
      const entries = await h.t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        kind: 'recharge',
        amount: 2_000_000,
        availableAfter: 2_000_000,
        idempotencyKey: `recharge:${order.orderNo}`,
        referenceType: 'recharge_order',
      });
      expect((await reconcileAccount(h.t.db, user.id)).balanced).toBe(true);
    });

    it('credits concurrent first payments once', async () => {
      const { user, headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers, 1000);
      await Promise.all(Array.from({ length: 10 }, () => h.pay(order)));
      expect(await balanceOf(h.t, headers)).toBe(1000);
      expect((await reconcileAccount(h.t.db, user.id)).entries).toBe(1);
    });

    it('reports paid trades with their amount, and unknown ones as not found', async () => {
      const { headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers, 300);
      expect((await h.t.app.deps.modules.payments.payments.query(order.orderNo)).status).not.toBe('PAID');
      await h.pay(order);
      expect(await h.t.app.deps.modules.payments.payments.query(order.orderNo)).toMatchObject({
        status: 'PAID',
        amount: 3_000_000,
      });
      expect(await h.t.app.deps.modules.payments.payments.query('RC00000000000000FFFFFFFFFFFF')).toEqual({
        status: 'NOT_FOUND',
      });
    });

    it('closes an unpaid trade so it is never reported paid', async () => {
      const { headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers);
      await h.t.app.deps.modules.payments.payments.close(order.orderNo);
      await h.t.app.deps.modules.payments.payments.close('RC00000000000000EEEEEEEEEEEE');
      expect((await h.t.app.deps.modules.payments.payments.query(order.orderNo)).status).not.toBe('PAID');
    });

    it('closes an order unpaid after 600 s (FAIL), and it cannot be paid afterwards', async () => {
      const { user, headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers);
      h.clock.advance(599_000);
      expect(await statusOf(h.t, headers, order.orderNo)).toBe('PENDING');
      h.clock.advance(1_000);
      expect(await statusOf(h.t, headers, order.orderNo)).toBe('FAIL');
      await h.pay(order);
      expect(await statusOf(h.t, headers, order.orderNo)).toBe('FAIL');
      expect(await balanceOf(h.t, headers)).toBe(0);
      expect((await reconcileAccount(h.t.db, user.id)).entries).toBe(0);
    });

    it('closes expired orders from the task as well', async () => {
      const { headers } = await h.t.createUser();
      const order = await createOrder(h.t, headers);
      h.clock.advance(601_000);
      const result = await closeExpiredRechargeOrders(h.t.app.deps.modules.payments);
      expect(result.expired).toBeGreaterThanOrEqual(1);
      const detail = await h.t.app.inject({
        method: 'GET',
        url: `/api/recharge/orders/${order.orderNo}`,
        headers,
      });
      expect(detail.json().data).toMatchObject({ status: 'CLOSED', paidAt: null });
      expect(detail.json().data.closedAt).toBeTruthy();
      await h.pay(order);
      expect(await balanceOf(h.t, headers)).toBe(0);
    });
  });
}
