import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { createPurchaseRepository } from './purchase.repository.ts';

/**
 * A create's first statement (the SKU, its host shared, prices, balance, image) is prepared
 * (issue 15). PostgreSQL plans a prepared statement afresh on every run unless its generic plan
 * looks no dearer than a custom one: with the SKU as an array placeholder it counted on ten SKUs
 * and their hosts' GPUs, and every create was planned again (a millisecond of PostgreSQL each,
 * issue 33). This holds the statement to its generic plan.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))("a create's first statement (PostgreSQL)", () => {
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    h = await instanceTestApp(systemClock);
  });
  afterAll(() => h.t.close());

  it('runs on its generic plan once PostgreSQL has compared plans', async () => {
    const machines = (await h.market()).map((m) => m.id as number);
    const tenant = await h.t.app.deps.modules.tenants.service.resolve('localhost');
    const { id: userId } = (await h.funded(100)).user;
    const plans = await h.t.db.transaction(async (tx) => {
      // One connection (the transaction's): its prepared statement and its plan counts.
      const repo = createPurchaseRepository({ db: tx });
      for (let k = 0; k < 8; k++) {
        const skuId = machines[k % machines.length] as number;
        const found = await repo.shareSkuForCreate({
          scope: { tenantId: tenant.id, regionIds: [] },
          skuId,
          userId,
          imageUrl: IMAGE,
        });
        expect(found?.row.id).toBe(skuId);
      }
      const r = await tx.execute(sql`
        select generic_plans, custom_plans from pg_prepared_statements where name = 'instances_share_sku'`);
      return (r as unknown as { rows: { generic_plans: string; custom_plans: string }[] }).rows[0];
    });
    // PostgreSQL tries 5 custom plans first, then keeps the generic one if it is no dearer.
    expect(Number(plans?.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(plans?.generic_plans)).toBeGreaterThanOrEqual(3);
  });
});
