import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { rollTally } from '../../platform/db/tallies.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { expectPagesFromBothEnds, type PageRead } from '../../test/pages.ts';
import { VOUCHERS_TALLY } from './vouchers.repository.ts';
import { type H, T0, voucherCalls } from './vouchers.test-helpers.ts';

const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());
const { inject, withVoucher } = voucherCalls(
  () => h,
  () => admin,
);

describe('the wallet’s pages (issue 33)', () => {
  it('are the same whichever end of the wallet they are read from, ties on expiry by id', async () => {
    const { u } = await withVoucher({ faceAmount: 20 });
    // 24 more, five to an expiry time (ties), not in id order.
    await h.t.db.execute(sql`
      insert into vouchers (tenant_id, user_id, config_id, code, name, amount, remaining, expires_at)
      select tenant_id, user_id, config_id, code || '-' || g, name, amount, remaining,
        expires_at - ((g * 7) % 5) * interval '1 day'
      from vouchers, generate_series(1, 24) g where user_id = ${u.user.id}`);
    await rollTally(h.t.db, VOUCHERS_TALLY, 0);
    const page: PageRead = async (q) => {
      const data = (await inject('GET', `/api/user/vouchers?${q}`, u.headers)).json().data;
      return { total: data.total as number, ids: data.list.map((v: { id: number }) => v.id) as number[] };
    };
    // A status filter takes the general query (every one is unused): the reference.
    await expectPagesFromBothEnds(page, (await page('status=UNUSED&size=100')).ids);
  });
});
