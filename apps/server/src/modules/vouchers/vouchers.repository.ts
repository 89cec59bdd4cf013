import type { VoucherStatus } from '@gpu/shared';
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/auth.tables.ts';
import { regions } from '../hosts/hosts.tables.ts';
import {
  voucherConfigs,
  voucherDistributionItems,
  voucherDistributions,
  vouchers,
} from './vouchers.tables.ts';

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherConfigRow = typeof voucherConfigs.$inferSelect;
export type DistributionRow = typeof voucherDistributions.$inferSelect;
export interface VoucherWithRegion extends VoucherRow {
  regionName: string | null;
}
export interface TargetUser {
  userId: number;
  tenantId: number;
  phone: string;
  username: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** The status of §4 as SQL: USED when nothing is left, else EXPIRED once past, else UNUSED. */
function statusIs(status: VoucherStatus, now: Date): SQL {
  if (status === 'USED') return sql`${vouchers.remaining} <= 0`;
  if (status === 'EXPIRED') return and(gt(vouchers.remaining, 0), lte(vouchers.expiresAt, now)) as SQL;
  return and(gt(vouchers.remaining, 0), gt(vouchers.expiresAt, now)) as SQL;
}

export function createVouchersRepository({ db }: { db: DbOrTx }) {
  const withRegion = { voucher: vouchers, regionName: regions.name };
  const toRow = (r: { voucher: VoucherRow; regionName: string | null }): VoucherWithRegion => ({
    ...r.voucher,
    regionName: r.regionName,
  });

  return {
    async listForUser(
      userId: number,
      f: {
        status?: VoucherStatus;
        now: Date;
        scope?: { regionId?: number; gpuType?: string; minAmount?: number };
      },
      page: { offset: number; size: number },
    ): Promise<{ rows: VoucherWithRegion[]; total: number }> {
      const s = f.scope;
      const where = and(
        eq(vouchers.userId, userId),
        f.status ? statusIs(f.status, f.now) : undefined,
        s?.regionId ? or(isNull(vouchers.regionId), eq(vouchers.regionId, s.regionId)) : undefined,
        s?.gpuType
          ? or(isNull(vouchers.gpuModel), sql`lower(${vouchers.gpuModel}) = lower(${s.gpuType})`)
          : undefined,
        s?.minAmount !== undefined ? lte(vouchers.minOrderAmount, s.minAmount) : undefined,
      );
      const rows = await db
        .select(withRegion)
        .from(vouchers)
        .leftJoin(regions, eq(regions.id, vouchers.regionId))
        .where(where)
        .orderBy(asc(vouchers.expiresAt), asc(vouchers.id))
        .limit(page.size)
        .offset(page.offset);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(vouchers).where(where);
      return { rows: rows.map(toRow), total: count?.n ?? 0 };
    },

    async statsForUser(userId: number, now: Date, expiringBy: Date) {
      const [r] = await db
        .select({
          totalValue: sql<string>`coalesce(sum(${vouchers.remaining}) filter (where ${statusIs('UNUSED', now)}), 0)`,
          unused: sql<number>`(count(*) filter (where ${statusIs('UNUSED', now)}))::int`,
          used: sql<number>`(count(*) filter (where ${statusIs('USED', now)}))::int`,
          expired: sql<number>`(count(*) filter (where ${statusIs('EXPIRED', now)}))::int`,
          expiring: sql<number>`(count(*) filter (where ${statusIs('UNUSED', now)} and ${vouchers.expiresAt} <= ${expiringBy}))::int`,
        })
        .from(vouchers)
        .where(eq(vouchers.userId, userId));
      return {
        totalValue: Number(r?.totalValue ?? 0),
        unused: r?.unused ?? 0,
        used: r?.used ?? 0,
        expired: r?.expired ?? 0,
        expiring: r?.expiring ?? 0,
      };
    },

    async findOfUser(
      userId: number,
      by: { id?: number; code?: string },
    ): Promise<VoucherWithRegion | undefined> {
      const [row] = await db
        .select(withRegion)
        .from(vouchers)
        .leftJoin(regions, eq(regions.id, vouchers.regionId))
        .where(
          and(
            eq(vouchers.userId, userId),
            by.id !== undefined ? eq(vouchers.id, by.id) : undefined,
            by.code !== undefined ? eq(vouchers.code, by.code) : undefined,
          ),
        );
      return row ? toRow(row) : undefined;
    },

    /** Row lock for the rest of the transaction (lock order: after host, before account). */
    async lock(id: number): Promise<VoucherRow | undefined> {
      const [row] = await db.select().from(vouchers).where(eq(vouchers.id, id)).for('update');
      return row;
    },

    /** Moves `delta` units into (positive) or out of (negative) a voucher; the check keeps 0 ≤ remaining ≤ amount. */
    async addRemaining(id: number, delta: number, at: Date) {
      await db
        .update(vouchers)
        .set({ remaining: sql`${vouchers.remaining} + ${delta}`, updatedAt: at })
        .where(eq(vouchers.id, id));
    },

    insertVouchers(values: (typeof vouchers.$inferInsert)[]): Promise<VoucherRow[]> {
      return values.length ? db.insert(vouchers).values(values).returning() : Promise.resolve([]);
    },

    /** How many vouchers of a config each user holds already (per-user limit). */
    async heldOfConfig(configId: number, userIds: number[]): Promise<Map<number, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: vouchers.userId, n: sql<number>`count(*)::int` })
        .from(vouchers)
        .where(and(eq(vouchers.configId, configId), inArray(vouchers.userId, userIds)))
        .groupBy(vouchers.userId);
      return new Map(rows.map((r) => [r.userId, r.n]));
    },

    // ---- configs ----

    async listConfigs(
      f: { keyword?: string; enabled?: boolean; id?: number },
      page: { page: number; size: number },
    ): Promise<{
      rows: (VoucherConfigRow & { regionName: string | null; issuedCount: number })[];
      total: number;
    }> {
      const where = and(
        f.id !== undefined ? eq(voucherConfigs.id, f.id) : eq(voucherConfigs.archived, false),
        f.keyword ? ilike(voucherConfigs.name, `%${escapeLike(f.keyword)}%`) : undefined,
        f.enabled !== undefined ? eq(voucherConfigs.enabled, f.enabled) : undefined,
      );
      const rows = await db
        .select({
          config: voucherConfigs,
          regionName: regions.name,
          issuedCount: db.$count(vouchers, eq(vouchers.configId, voucherConfigs.id)),
        })
        .from(voucherConfigs)
        .leftJoin(regions, eq(regions.id, voucherConfigs.regionId))
        .where(where)
        .orderBy(desc(voucherConfigs.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(voucherConfigs).where(where);
      return {
        rows: rows.map((r) => ({
          ...r.config,
          regionName: r.regionName,
          issuedCount: Number(r.issuedCount),
        })),
        total: count?.n ?? 0,
      };
    },

    async findConfig(id: number, opts: { lock?: boolean } = {}): Promise<VoucherConfigRow | undefined> {
      const q = db.select().from(voucherConfigs).where(eq(voucherConfigs.id, id));
      const [row] = opts.lock ? await q.for('update') : await q;
      return row;
    },
    async insertConfig(values: typeof voucherConfigs.$inferInsert): Promise<VoucherConfigRow | undefined> {
      const [row] = await db.insert(voucherConfigs).values(values).returning();
      return row;
    },
    async updateConfig(id: number, set: Partial<typeof voucherConfigs.$inferInsert>) {
      const [row] = await db.update(voucherConfigs).set(set).where(eq(voucherConfigs.id, id)).returning();
      return row;
    },
    async deleteConfig(id: number) {
      await db.delete(voucherConfigs).where(eq(voucherConfigs.id, id));
    },
    async issuedOfConfig(id: number): Promise<number> {
      return db.$count(vouchers, eq(vouchers.configId, id));
    },
    async regionExists(id: number): Promise<boolean> {
      return (await db.$count(regions, eq(regions.id, id))) > 0;
    },

    // ---- distribution targets ----

    async targetUsers(
      t:
        | { type: 'tenant'; tenantId: number }
        | { type: 'phones'; phones: string[] }
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
      if (t.type === 'phones')
        return db
          .select(cols)
          .from(users)
          .where(and(active, inArray(users.phone, t.phones)))
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

    // ---- distributions ----

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
    async listDistributions(f: { configId?: number }, page: { page: number; size: number }) {
      const where = f.configId ? eq(voucherDistributions.configId, f.configId) : undefined;
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
