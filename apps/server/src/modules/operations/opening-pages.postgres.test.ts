import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.ts';
import { scaleSliceDatabase } from '../../test/scale-slice.ts';
import { createOperationsRepository } from './operations.repository.ts';

/**
 * The back office's users and instances pages as they open are prepared statements (issue 33).
 * PostgreSQL plans one afresh on every run unless its generic plan looks no dearer than a custom
 * one; on a fleet, a placeholder offset and the total's bound cap looked like a tenth of the
 * table, and both pages were planned on every view (0.5–0.9 ms each). This holds them to their
 * generic plans at the table sizes.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))('back-office opening pages on a fleet (PostgreSQL)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await scaleSliceDatabase(0.02);
    // As the planner sees a fleet's tables (issue 33's sizes), without writing them: row counts
    // per page scale its estimates, and the choice between plans turned only at those sizes.
    await database.db.execute(sql`
      update pg_class set reltuples = case relname when 'users' then 100000 else 230000 end
      where relname in ('users', 'instances') and relnamespace = 'public'::regnamespace`);
  }, 120_000);
  afterAll(() => database.close());

  it.each([
    [
      'admin_users_page',
      (repo: ReturnType<typeof createOperationsRepository>, page: number) =>
        repo.users({}, { page, size: 20 }, { by: 'createdAt', order: 'desc' }),
    ],
    [
      'admin_instances_page',
      (repo: ReturnType<typeof createOperationsRepository>, page: number) =>
        repo.instances({}, { page, size: 20 }),
    ],
  ])('%s runs on its generic plan once PostgreSQL has compared plans', async (name, open) => {
    const plans = await database.db.transaction(async (tx) => {
      // One connection (the transaction's): its prepared statement and its plan counts.
      const repo = createOperationsRepository({ db: tx });
      for (let page = 1; page <= 8; page++) expect((await open(repo, page)).rows).toHaveLength(20);
      const found = await tx.execute(sql`
        select generic_plans, custom_plans from pg_prepared_statements where name = ${name}`);
      return (found as unknown as { rows: { generic_plans: string; custom_plans: string }[] }).rows[0];
    });
    // PostgreSQL tries 5 custom plans first, then keeps the generic one if it is no dearer.
    expect(Number(plans?.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(plans?.generic_plans)).toBeGreaterThanOrEqual(3);
  });
});
