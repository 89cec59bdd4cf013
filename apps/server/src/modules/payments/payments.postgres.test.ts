import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { isAppError } from '../../platform/errors.ts';
import { buildServer, createTestApp, testConfig } from '../../test/test-app.ts';
import { postLedgerEntry, reconcileAccount } from '../ledger/ledger.ts';
import { type FakeAlipayGateway, startFakeAlipayGateway } from './drivers/alipay/fake-alipay-gateway.ts';
import { balanceOf, createOrder } from './drivers/payment-drivers.test-suite.ts';
import { rechargeOrders } from './payments.tables.ts';
import { closeExpiredRechargeOrders } from './tasks/close-expired-orders.task.ts';
import { reconcilePendingRechargeOrders } from './tasks/reconcile-pending-orders.task.ts';

/** The production path: real PostgreSQL, real concurrency (scripts/with-postgres.sh). */
describe.runIf(Boolean(process.env.DATABASE_URL))('payments on PostgreSQL', () => {
  let gateway: FakeAlipayGateway;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const clock = fixedClock('2026-11-22T08:00:00Z');

  beforeAll(async () => {
    gateway = await startFakeAlipayGateway();
    t = await createTestApp({ clock, demo: false, config: gateway.config });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const notify = (params: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pay/alipay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });

  it('credits one order once under 50 concurrent notifications', async () => {
    const { user, headers } = await t.createUser();
    const order = await createOrder(t, headers, 200);
    const trade = gateway.pay(order.orderNo);
    if (!trade) throw new Error('no trade');
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => notify(gateway.notification(trade))));
    const ms = Math.round(performance.now() - started);
    expect(answers.map((a) => a.body)).toEqual(Array(50).fill('success'));
    expect(await balanceOf(t, headers)).toBe(200);
    expect(await reconcileAccount(t.db, user.id)).toMatchObject({
      balanced: true,
      entries: 1,
      available: 2_000_000,
    });
    console.info(
      `PostgreSQL: 50 concurrent notifies for one order → 1 credit, all answered success, ${ms} ms`,
    );
  });

  it('credits 20 orders of one user once each under 10 concurrent copies per order', async () => {
    const { user, headers } = await t.createUser();
    const orders = [];
    for (let i = 0; i < 20; i++) {
      if (i % 10 === 0) clock.advance(601_000); // stay under the pending limit
      orders.push(await createOrder(t, headers, 100 + i));
    }
    const copies = orders.flatMap((o) => {
      const trade = gateway.pay(o.orderNo);
      if (!trade) throw new Error('no trade');
      return Array.from({ length: 10 }, () => gateway.notification(trade));
    });
    const answers = await Promise.all(copies.map(notify));
    expect(answers.filter((a) => a.body === 'success')).toHaveLength(200);
    const expected = orders.reduce((s, _o, i) => s + 100 + i, 0);
    expect(await balanceOf(t, headers)).toBe(expected);
    expect(await reconcileAccount(t.db, user.id)).toMatchObject({ balanced: true, entries: 20 });
  });

  it('runs the tasks on two replicas at once: every order settled or closed once', async () => {
    const replica = await buildServer({
      config: testConfig({ ...gateway.config, RATE_LIMITS: 'off' }),
      database: t.database,
      clock,
      webDist: '/nonexistent',
    });
    try {
      const { user, headers } = await t.createUser();
      const paid = [];
      const unpaid = [];
      for (let i = 0; i < 10; i++) {
        const o = await createOrder(t, headers, 100);
        if (i % 2 === 0) {
          gateway.pay(o.orderNo);
          paid.push(o);
        } else {
          gateway.scan(o.orderNo);
          unpaid.push(o);
        }
      }
      clock.advance(11_000);
      await Promise.all([
        reconcilePendingRechargeOrders(t.app.deps.modules.payments),
        reconcilePendingRechargeOrders(replica.deps.modules.payments),
        reconcilePendingRechargeOrders(t.app.deps.modules.payments),
        reconcilePendingRechargeOrders(replica.deps.modules.payments),
      ]);
      expect(await balanceOf(t, headers)).toBe(500);
      clock.advance(600_000);
      await Promise.all([
        closeExpiredRechargeOrders(t.app.deps.modules.payments),
        closeExpiredRechargeOrders(replica.deps.modules.payments),
      ]);
      for (const o of unpaid) {
        const [row] = await t.db.select().from(rechargeOrders).where(eq(rechargeOrders.orderNo, o.orderNo));
        expect(row?.status).toBe('CLOSED');
        expect(gateway.trades.get(o.orderNo)?.status).toBe('TRADE_CLOSED');
      }
      expect(await reconcileAccount(t.db, user.id)).toMatchObject({
        balanced: true,
        entries: 5,
        available: 5_000_000,
      });
    } finally {
      await replica.close();
    }
  });

  it('holds the pending-order limit under 30 concurrent requests', async () => {
    const { headers } = await t.createUser();
    const res = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.app.inject({ method: 'POST', url: '/api/pay/createQrCode', headers, payload: { amount: 100 } }),
      ),
    );
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(20);
  });

  it('never overdraws one account under 50 concurrent debits, and posts a shared key once', async () => {
    const { user } = await t.createUser();
    const post = (amount: number, key: string) =>
      t.db
        .transaction((tx) =>
          postLedgerEntry(tx, {
            userId: user.id,
            kind: amount > 0 ? 'recharge' : 'charge',
            amount,
            idempotencyKey: key,
          }),
        )
        .then(
          (r) => (r.created ? 'created' : 'replay'),
          (err) => (isAppError(err) ? err.code : String(err)),
        );
    const credits = await Promise.all(
      Array.from({ length: 50 }, () => post(1_000_000, `pg-credit:${user.id}`)),
    );
    expect(credits.filter((c) => c === 'created')).toHaveLength(1);
    expect(credits.filter((c) => c === 'replay')).toHaveLength(49);
    const debits = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(-30_000, `pg-debit:${user.id}:${i}`)),
    );
    expect(debits.filter((d) => d === 'created')).toHaveLength(33);
    expect(debits.filter((d) => d === 'billing.insufficient_balance')).toHaveLength(17);
    expect(await reconcileAccount(t.db, user.id)).toMatchObject({ balanced: true, available: 10_000 });
  });
});
