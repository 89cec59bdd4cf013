import type { VoucherStatus } from '@gpu/shared';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  ilike,
  inArray,
  isNull,
  lte,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { talliedPage } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { type TallyDef, talliedCount, totalOf } from '../../platform/db/tallies.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { voucherConfigs, vouchers } from './vouchers.tables.ts';

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherConfigRow = typeof voucherConfigs.$inferSelect;
export interface VoucherWithRegion extends VoucherRow {
  regionName: string | null;
}

/** The status of §4 as SQL: USED when nothing is left, else EXPIRED once past, else UNUSED. */
export function statusIs(status: VoucherStatus, now: Date | Placeholder): SQL {
  if (status === 'USED') return sql`${vouchers.remaining} <= 0`;
  if (status === 'EXPIRED') return and(gt(vouchers.remaining, 0), lte(vouchers.expiresAt, now)) as SQL;
  return and(gt(vouchers.remaining, 0), gt(vouchers.expiresAt, now)) as SQL;
}

/** A customer's vouchers (any tenant): the wallet's total when it is not filtered. */
export const VOUCHERS_TALLY: TallyDef = { name: 'vouchers', table: 'vouchers', userColumn: 'user_id' };

const WALLET_ORDER = [asc(vouchers.expiresAt), asc(vouchers.id)];
/** A voucher with its region's name, flat: drizzle builds each row once (issue 33, see withPlace). */
const withRegion = { ...getTableColumns(vouchers), regionName: regions.name };
const param = sql.placeholder;

/**
 * The wallet as it opens (no filter): one statement built and planned once per connection, its
 * total riding along (issue 33: building and planning it was most of the page's cost).
 */
const openingPage = preparedStatement('vouchers_page', (db) => {
  const where = eq(vouchers.userId, param('userId'));
  const { total, ids } = talliedPage(VOUCHERS_TALLY, {
    who: { userId: param('userId') },
    where,
    forward: sql`${vouchers.expiresAt} asc, ${vouchers.id} asc`,
    backward: sql`${vouchers.expiresAt} desc, ${vouchers.id} desc`,
  });
  return db
    .select({ ...withRegion, total })
    .from(vouchers)
    .leftJoin(regions, eq(regions.id, vouchers.regionId))
    .where(inArray(vouchers.id, ids))
    .orderBy(...WALLET_ORDER);
});

/** The SQL of vouchers and their configs; distributions have distribution.repository.ts. */
export function createVouchersRepository({ db }: { db: DbOrTx }) {
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
      const filtered = f.status || s?.regionId || s?.gpuType || s?.minAmount !== undefined;
      if (!filtered) {
        const values = { userId, limit: page.size, offset: page.offset };
        type Found = VoucherWithRegion & { total: number };
        const found = (await openingPage(db, values)) as Found[];
        if (found[0]) return { rows: found, total: Number(found[0].total) };
      }
      const where = and(
        eq(vouchers.userId, userId),
        f.status ? statusIs(f.status, f.now) : undefined,
        s?.regionId ? or(isNull(vouchers.regionId), eq(vouchers.regionId, s.regionId)) : undefined,
        s?.gpuType
          ? or(isNull(vouchers.gpuModel), sql`lower(${vouchers.gpuModel}) = lower(${s.gpuType})`)
          : undefined,
        s?.minAmount !== undefined ? lte(vouchers.minOrderAmount, s.minAmount) : undefined,
      );
      // The page's ids from the index (however deep the page), then only their rows.
      const ids = db
        .select({ id: vouchers.id })
        .from(vouchers)
        .where(where)
        .orderBy(...WALLET_ORDER)
        .limit(page.size)
        .offset(page.offset);
      const total = filtered
        ? sql<number>`(select count(*) from vouchers where ${where})::int`.mapWith(Number)
        : talliedCount(VOUCHERS_TALLY, { userId }, {}, where);
      // The total rides along with the page's rows (one round trip).
      const rows = await db
        .select({ ...withRegion, total })
        .from(vouchers)
        .leftJoin(regions, eq(regions.id, vouchers.regionId))
        .where(inArray(vouchers.id, ids))
        .orderBy(...WALLET_ORDER);
      return { rows, total: await totalOf(db, rows, total) };
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
      return row;
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
      f: { keyword?: string; enabled?: boolean; id?: number; tenantId?: number | null },
      page: { page: number; size: number },
    ): Promise<{
      rows: (VoucherConfigRow & { regionName: string | null; issuedCount: number })[];
      total: number;
    }> {
      const where = and(
        f.id !== undefined ? eq(voucherConfigs.id, f.id) : eq(voucherConfigs.archived, false),
        f.keyword ? ilike(voucherConfigs.name, containing(f.keyword)) : undefined,
        f.enabled !== undefined ? eq(voucherConfigs.enabled, f.enabled) : undefined,
        f.tenantId != null ? eq(voucherConfigs.tenantId, f.tenantId) : undefined,
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

    /** `tenantId`: only a config of that tenant (a tenant operator's scope); null or absent: any. */
    async findConfig(
      id: number,
      opts: { lock?: boolean; tenantId?: number | null } = {},
    ): Promise<VoucherConfigRow | undefined> {
      const q = db
        .select()
        .from(voucherConfigs)
        .where(
          and(
            eq(voucherConfigs.id, id),
            opts.tenantId != null ? eq(voucherConfigs.tenantId, opts.tenantId) : undefined,
          ),
        );
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
  };
}
