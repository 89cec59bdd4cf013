import { FEN } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';

/** Rows of `db.execute` (node-postgres and PGlite both answer `{ rows }`). */
export const resultRows = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

/** A bigint[] parameter: one value however many ids (drizzle would spread an array). */
export const idArray = (ids: number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]`;

/**
 * What pay-as-you-go has posted by `at` (issue 10), for the instance row aliased `alias`: the
 * accrual of `accruedAt` (instances.models.ts) — closed periods plus
 * floor(rate × whole seconds / 3600) of the running one, at `currentRate` (no-GPU mode's while
 * set) — floored to whole fen as `floorToFen`.
 * Exact integer arithmetic, so it equals the JS figure for every row (metering.property.test.ts).
 * The one SQL copy of the formula: metering charges by it and the back office's pending figures
 * (operations.repository.ts) read it.
 */
export function postedBySql(alias: string, at: SQL | Date): SQL {
  const i = sql.raw(alias);
  const when = at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at;
  // Whole seconds as bigint, then integer division (truncation = floor: all non-negative).
  const seconds = sql`greatest(0, floor(extract(epoch from (${when} - ${i}.running_since))))::bigint`;
  const rate = sql`coalesce(${i}.nogpu_rate, ${i}.hourly_rate)`;
  const accrued = sql`(${i}.accrued_closed + coalesce(${rate} * ${seconds} / 3600, 0))`;
  return sql`(${accrued} / ${sql.raw(String(FEN))} * ${sql.raw(String(FEN))})`;
}
