import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { findUnbalancedAccounts, reconcileAccount } from '../ledger/ledger.ts';
import { type FakeAlipayGateway, startFakeAlipayGateway } from './drivers/alipay/fake-alipay-gateway.ts';
import type { Headers } from './drivers/payment-drivers.test-suite.ts';
import { rechargeOrders } from './payments.tables.ts';
import { rechargeLedgerKey } from './payments.usecases.ts';
import { closeExpiredRechargeOrders } from './tasks/close-expired-orders.task.ts';
import { reconcilePendingRechargeOrders } from './tasks/reconcile-pending-orders.task.ts';

/**
 * Random sequences of recharges, notifications (genuine, forged, closed), replays, concurrent
 * copies, status polls, expiries and reconcile runs against Alipay's protocol (local fake):
 * the balance always equals the sum of the ledger, and no order is ever credited twice.
 */
type Variant = 'valid' | 'wrongAmount' | 'badSignature' | 'closed' | 'waiting';
type Op =
  | { t: 'create'; user: number; amount: number }
  | { t: 'notify'; order: number; variant: Variant }
  | { t: 'replay'; order: number }
  | { t: 'concurrent'; order: number; copies: number }
  | { t: 'poll'; order: number }
  | { t: 'expire' }
  | { t: 'reconcile' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      user: fc.nat(2),
      amount: fc.integer({ min: 100, max: 100_000 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('notify' as const),
      order: fc.nat(20),
      variant: fc.constantFrom<Variant>('valid', 'valid', 'wrongAmount', 'badSignature', 'closed', 'waiting'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('replay' as const), order: fc.nat(20) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('concurrent' as const),
      order: fc.nat(20),
      copies: fc.integer({ min: 2, max: 6 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('poll' as const), order: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'expire' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'reconcile' as const }) },
);

describe('recharge property', () => {
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

  it('keeps balance = Σ ledger and credits every order at most once', { timeout: 180_000 }, async () => {
    let runs = 0;
    let notifications = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 40 }), async (ops) => {
        runs++;
        const users = await Promise.all([0, 1, 2].map(() => t.createUser()));
        const orders: { orderNo: string; headers: Headers; last?: Record<string, string> }[] = [];
        const pick = (i: number) => (orders.length ? orders[i % orders.length] : undefined);

        for (const op of ops) {
          if (op.t === 'create') {
            const u = users[op.user] as (typeof users)[number];
            const res = await t.app.inject({
              method: 'POST',
              url: '/api/pay/createQrCode',
              headers: u.headers,
              payload: { amount: op.amount },
            });
            expect([200, 429]).toContain(res.statusCode);
            if (res.statusCode === 200) orders.push({ orderNo: res.json().data.orderNo, headers: u.headers });
          } else if (op.t === 'notify' || op.t === 'concurrent') {
            const o = pick(op.order);
            const trade = o && gateway.trades.get(o.orderNo);
            if (!o || !trade) continue;
            const variant = op.t === 'notify' ? op.variant : 'valid';
            let params: Record<string, string>;
            if (variant === 'valid' || variant === 'wrongAmount' || variant === 'badSignature') {
              // The customer pays unless Alipay closed the trade; then the notification says so.
              gateway.pay(o.orderNo);
              const wrong: Record<string, string> = variant === 'wrongAmount' ? { total_amount: '0.01' } : {};
              params = gateway.notification(trade, wrong, {
                signWith: variant === 'badSignature' ? 'other' : 'alipay',
              });
            } else if (variant === 'closed') {
              if (trade.status === 'WAIT_BUYER_PAY') {
                trade.scanned = true;
                trade.status = 'TRADE_CLOSED';
              }
              params = gateway.notification(trade);
            } else {
              params = gateway.notification(trade);
            }
            o.last = params;
            const copies = op.t === 'concurrent' ? op.copies : 1;
            const answers = await Promise.all(Array.from({ length: copies }, () => notify(params)));
            notifications += copies;
            for (const a of answers) expect(['success', 'fail']).toContain(a.body);
          } else if (op.t === 'replay') {
            const o = pick(op.order);
            if (o?.last) {
              await notify(o.last);
              notifications++;
            }
          } else if (op.t === 'poll') {
            const o = pick(op.order);
            if (o) {
              const res = await t.app.inject({
                method: 'GET',
                url: `/api/pay/status?outTradeNo=${o.orderNo}`,
                headers: o.headers,
              });
              expect(['SUCCESS', 'FAIL', 'PENDING']).toContain(res.json().data);
            }
          } else if (op.t === 'expire') {
            clock.advance(601_000);
            await closeExpiredRechargeOrders(t.app.deps.modules.payments);
          } else {
            clock.advance(11_000);
            await reconcilePendingRechargeOrders(t.app.deps.modules.payments);
          }
        }

        for (const u of users) expect((await reconcileAccount(t.db, u.user.id)).balanced).toBe(true);
        // Paid at Alipay but only forged or refused notifications arrived: the tasks find those.
        clock.advance(11_000);
        await reconcilePendingRechargeOrders(t.app.deps.modules.payments);
        await closeExpiredRechargeOrders(t.app.deps.modules.payments);
        if (orders.length === 0) return;
        const rows = await t.db
          .select()
          .from(rechargeOrders)
          .where(
            inArray(
              rechargeOrders.orderNo,
              orders.map((o) => o.orderNo),
            ),
          );
        const entries = await t.db
          .select()
          .from(ledgerEntries)
          .where(
            inArray(
              ledgerEntries.idempotencyKey,
              rows.map((r) => rechargeLedgerKey(r.orderNo)),
            ),
          );
        for (const r of rows) {
          const credits = entries.filter((e) => e.idempotencyKey === rechargeLedgerKey(r.orderNo));
          expect(credits.length).toBe(r.status === 'SUCCESS' ? 1 : 0);
          if (credits[0]) expect(credits[0].amount).toBe(r.amount);
          // Credited exactly when Alipay holds the money.
          expect(r.status === 'SUCCESS').toBe(gateway.trades.get(r.orderNo)?.status === 'TRADE_SUCCESS');
        }
        for (const u of users) {
          const paid = rows
            .filter((r) => r.userId === u.user.id && r.status === 'SUCCESS')
            .reduce((sum, r) => sum + r.amount, 0);
          expect(await reconcileAccount(t.db, u.user.id)).toMatchObject({ balanced: true, available: paid });
        }
      }),
      { numRuns: 30 },
    );
    expect(await findUnbalancedAccounts(t.db)).toEqual([]);
    expect(runs).toBe(30);
    expect(notifications).toBeGreaterThan(50);
    const credited = await t.db.$count(rechargeOrders, inArray(rechargeOrders.status, ['SUCCESS']));
    console.info(
      `recharge property: ${runs} sequences, ${notifications} notifications, ${credited} orders credited once each`,
    );
  });
});
