import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { rollTally } from '../../platform/db/tallies.ts';
import { expectPagesFromBothEnds, type PageRead } from '../../test/pages.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createOrder } from './drivers/payment-drivers.test-suite.ts';
import { RECHARGE_ORDERS_TALLY } from './payments.repository.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

describe('recharge orders’ totals (issue 33)', () => {
  it('stay exact once the orders are tallied, and count an order made after the tally', async () => {
    const { headers } = await t.createUser();
    const other = await t.createUser();
    for (const yuan of [100, 200]) await createOrder(t, headers, yuan);
    await createOrder(t, other.headers, 500);
    const totals = () =>
      Promise.all(
        ['', '?page=3&size=2', '?status=PENDING', '?status=SUCCESS'].map(
          async (q) =>
            (await t.app.inject({ method: 'GET', url: `/api/recharge/orders${q}`, headers })).json().data
              .total,
        ),
      );
    expect(await totals()).toEqual([2, 2, 2, 0]);
    expect(await rollTally(t.db, RECHARGE_ORDERS_TALLY, 0)).toBe(3);
    expect(await totals()).toEqual([2, 2, 2, 0]);
    await createOrder(t, headers, 300);
    expect(await totals()).toEqual([3, 3, 3, 0]);
    expect(await rollTally(t.db, RECHARGE_ORDERS_TALLY, 0)).toBe(1);
    expect(await totals()).toEqual([3, 3, 3, 0]);
  });

  it('gives every page the same orders whichever end it is read from, ties by id', async () => {
    const { user, headers } = await t.createUser();
    await createOrder(t, headers, 100);
    // 24 more of this user's orders, five to a minute (ties on created_at), not in id order.
    await t.db.execute(sql`
      insert into recharge_orders (order_no, tenant_id, user_id, amount, payment_type, provider, status,
        subject, body, expires_at, created_at)
      select 'P' || g, tenant_id, user_id, amount, payment_type, provider, 'CLOSED', subject, body, expires_at,
        created_at - ((g * 7) % 5) * interval '1 minute'
      from recharge_orders, generate_series(1, 24) g where user_id = ${user.id}`);
    await rollTally(t.db, RECHARGE_ORDERS_TALLY, 0);
    const page: PageRead = async (q) => {
      const data = (await t.app.inject({ method: 'GET', url: `/api/recharge/orders?${q}`, headers })).json()
        .data;
      return { total: data.total as number, ids: data.list.map((o: { id: number }) => o.id) as number[] };
    };
    // A date range takes the general query (all of them are in it): the reference.
    await expectPagesFromBothEnds(page, (await page('startDate=2020-01-01&size=100')).ids);
  });
});
