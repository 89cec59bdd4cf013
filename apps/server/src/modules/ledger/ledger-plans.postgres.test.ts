import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import type { T } from './ledger.test-helpers.ts';
import { postLedgerEntry } from './ledger.ts';

/**
 * A posting's account lock and key lookup are prepared statements that keep their generic plan
 * (issue 33). With the account and the key as array placeholders, PostgreSQL priced the generic
 * plan at ten accounts and ten keys and planned both afresh on every posting: every package
 * purchase, renewal and recharge paid for two plans.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))("a posting's statements (PostgreSQL)", () => {
  let t: T;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('run on their generic plans once PostgreSQL has compared plans', async () => {
    const { user } = await t.createUser();
    const plans = await t.db.transaction(async (tx) => {
      // One connection (the transaction's): its prepared statements and their plan counts.
      for (let k = 0; k < 8; k++)
        await postLedgerEntry(tx, {
          userId: user.id,
          kind: 'recharge',
          amount: 100,
          idempotencyKey: `plans:${user.id}:${k}`,
        });
      const r = await tx.execute(sql`
        select name, generic_plans, custom_plans from pg_prepared_statements
        where name in ('ledger_lock_account', 'ledger_entry_by_key', 'ledger_insert_one')`);
      return new Map(
        (r as unknown as { rows: { name: string; generic_plans: string; custom_plans: string }[] }).rows.map(
          (p) => [p.name, { generic: Number(p.generic_plans), custom: Number(p.custom_plans) }],
        ),
      );
    });
    for (const name of ['ledger_lock_account', 'ledger_entry_by_key', 'ledger_insert_one']) {
      // PostgreSQL tries 5 custom plans first, then keeps the generic one if it is no dearer.
      expect(plans.get(name)?.custom, name).toBeLessThanOrEqual(5);
      expect(plans.get(name)?.generic, name).toBeGreaterThanOrEqual(3);
    }
  });
});
