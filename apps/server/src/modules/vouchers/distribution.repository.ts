import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/auth.tables.ts';
import type { PhoneOwner } from './distribution.models.ts';
import {
  voucherConfigs,
  voucherDistributionItems,
  voucherDistributions,
  vouchers,
} from './vouchers.tables.ts';

export type DistributionRow = typeof voucherDistributions.$inferSelect;
export interface TargetUser {
  userId: number;
  tenantId: number;
  phone: string;
  username: string;
}

/** The SQL of voucher distributions: whom a target reaches, the distribution rows and who got what. */
export function createDistributionRepository({ db }: { db: DbOrTx }) {
  return {
    async targetUsers(
      t:
        | { type: 'tenant'; tenantId: number }
        | { type: 'registered'; from: Date; to: Date; tenantId?: number }
        | { type: 'spend'; minSpend: number; tenantId?: number },
    ): Promise<TargetUser[]> {
      const cols = {
        userId: users.id,
        tenantId: users.tenantId,
        phone: users.phone,
        username: users.username,
      };
      const active = eq(users.status, 'ACTIVE');
      if (t.type === 'tenant')
        return db
          .select(cols)
          .from(users)
          .where(and(active, eq(users.tenantId, t.tenantId)))
          .orderBy(asc(users.id));
      const tenant = t.tenantId ? eq(users.tenantId, t.tenantId) : undefined;
      if (t.type === 'registered')
        return db
          .select(cols)
          .from(users)
          .where(and(active, tenant, gte(users.createdAt, t.from), lte(users.createdAt, t.to)))
          .orderBy(asc(users.id));
      // Net spend: charges less refunds over the user's whole ledger.
      return db
        .select(cols)
        .from(users)
        .where(
          and(
            active,
            tenant,
            sql`coalesce((select -sum(l.amount) from ledger_entries l where l.user_id = ${users.id} and l.kind in ('charge', 'refund')), 0) >= ${t.minSpend}`,
          ),
        )
        .orderBy(asc(users.id));
    },

    /** Every account holding one of these phones, whatever its tenant or status. */
    async phoneOwners(phones: string[]): Promise<PhoneOwner[]> {
      if (phones.length === 0) return [];
      return db
        .select({
          userId: users.id,
          tenantId: users.tenantId,
          phone: users.phone,
          username: users.username,
          status: users.status,
        })
        .from(users)
        .where(inArray(users.phone, phones));
    },

    async findDistribution(by: { id?: number; requestId?: string }): Promise<DistributionRow | undefined> {
      const [row] = await db
        .select()
        .from(voucherDistributions)
        .where(
          by.id !== undefined
            ? eq(voucherDistributions.id, by.id)
            : eq(voucherDistributions.requestId, by.requestId ?? ''),
        );
      return row;
    },
    /** Inserts unless the request id exists (a concurrent repeat): undefined then. */
    async insertDistribution(values: typeof voucherDistributions.$inferInsert) {
      const [row] = await db.insert(voucherDistributions).values(values).onConflictDoNothing().returning();
      return row;
    },
    async setDistributionCounts(id: number, targetCount: number, issuedCount: number) {
      await db
        .update(voucherDistributions)
        .set({ targetCount, issuedCount })
        .where(eq(voucherDistributions.id, id));
    },
    async insertItems(values: (typeof voucherDistributionItems.$inferInsert)[]) {
      if (values.length) await db.insert(voucherDistributionItems).values(values);
    },
    /** `tenantId`: only distributions of that tenant's configs (a tenant operator's scope). */
    async listDistributions(
      f: { configId?: number; tenantId?: number | null },
      page: { page: number; size: number },
    ) {
      const where = and(
        f.configId ? eq(voucherDistributions.configId, f.configId) : undefined,
        f.tenantId != null ? eq(voucherConfigs.tenantId, f.tenantId) : undefined,
      );
      const rows = await db
        .select({ d: voucherDistributions, configName: voucherConfigs.name })
        .from(voucherDistributions)
        .innerJoin(voucherConfigs, eq(voucherConfigs.id, voucherDistributions.configId))
        .where(where)
        .orderBy(desc(voucherDistributions.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(voucherDistributions)
        .innerJoin(voucherConfigs, eq(voucherConfigs.id, voucherDistributions.configId))
        .where(where);
      return { rows, total: count?.n ?? 0 };
    },
    async distributionItems(id: number) {
      return db
        .select({
          userId: voucherDistributionItems.userId,
          phone: users.phone,
          username: users.username,
          voucherId: voucherDistributionItems.voucherId,
          voucherCode: vouchers.code,
        })
        .from(voucherDistributionItems)
        .innerJoin(users, eq(users.id, voucherDistributionItems.userId))
        .innerJoin(vouchers, eq(vouchers.id, voucherDistributionItems.voucherId))
        .where(eq(voucherDistributionItems.distributionId, id))
        .orderBy(asc(voucherDistributionItems.userId));
    },
    async configName(id: number): Promise<string> {
      const [row] = await db
        .select({ name: voucherConfigs.name })
        .from(voucherConfigs)
        .where(eq(voucherConfigs.id, id));
      return row?.name ?? '';
    },
  };
}
