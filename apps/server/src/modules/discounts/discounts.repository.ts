import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import type { DiscountRule } from './discounts.models.ts';
import { discounts } from './discounts.tables.ts';

export function createDiscountsRepository({ db }: { db: DbOrTx }) {
  return {
    /** Enabled rules of the tenant (or global) that have not ended at `now`; started or not. */
    current(tenantId: number, now: Date): Promise<DiscountRule[]> {
      return db
        .select()
        .from(discounts)
        .where(
          and(
            eq(discounts.enabled, true),
            gt(discounts.endsAt, now),
            or(isNull(discounts.tenantId), eq(discounts.tenantId, tenantId)),
          ),
        );
    },
  };
}
