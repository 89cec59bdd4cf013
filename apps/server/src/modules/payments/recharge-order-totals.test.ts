import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { rollTally } from '../../platform/db/tallies.ts';
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
});
