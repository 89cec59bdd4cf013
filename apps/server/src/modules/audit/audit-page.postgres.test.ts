import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.ts';
import { scaleSliceDatabase } from '../../test/scale-slice.ts';
import { createAuditRepository } from './audit.repository.ts';

/**
 * The audit log as it opens is two prepared statements (issue 33): built and planned on every
 * view, the page and its count took more time to plan than to run. They answer what the general
 * statements answer, and the page's statement keeps its generic plan at the log's full size.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))('the audit log as it opens (PostgreSQL)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await scaleSliceDatabase(0.02);
  }, 120_000);
  afterAll(() => database.close());

  it('answers the rows, their order and the total the general statements answer', async () => {
    const repo = createAuditRepository({ db: database.db });
    // A filter every entry passes takes the general statements.
    const everything = { from: new Date(0) };
    // Past the end too (no row to carry the total: the general count answers it).
    for (const page of [1, 2, 37, 500, 5000]) {
      const opening = await repo.list({}, { page, size: 20 });
      const general = await repo.list(everything, { page, size: 20 });
      expect(opening.rows.map((r) => [r.id, r.adminName, r.createdAt.toISOString()])).toEqual(
        general.rows.map((r) => [r.id, r.adminName, r.createdAt.toISOString()]),
      );
      expect({ total: opening.total, capped: opening.totalCapped }).toEqual({
        total: general.total,
        capped: general.totalCapped,
      });
    }
    expect((await repo.list({}, { page: 1, size: 20 })).rows).toHaveLength(20);
  });

  it('keeps its generic plan once PostgreSQL has compared plans, at the full log size', async () => {
    // As the planner sees issue 33's million entries, without writing them.
    await database.db.execute(sql`
      update pg_class set reltuples = 1000000 where relname = 'audit_log' and relnamespace = 'public'::regnamespace`);
    const plans = await database.db.transaction(async (tx) => {
      // One connection (the transaction's): its prepared statement and its plan counts.
      const repo = createAuditRepository({ db: tx });
      for (let page = 1; page <= 8; page++)
        expect((await repo.list({}, { page, size: 20 })).rows).toHaveLength(20);
      const found = await tx.execute(sql`
        select generic_plans, custom_plans from pg_prepared_statements where name = 'audit_log_page'`);
      return (found as unknown as { rows: { generic_plans: string; custom_plans: string }[] }).rows[0];
    });
    // PostgreSQL tries 5 custom plans first, then keeps the generic one if it is no dearer.
    expect(Number(plans?.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(plans?.generic_plans)).toBeGreaterThanOrEqual(3);
  });
});
