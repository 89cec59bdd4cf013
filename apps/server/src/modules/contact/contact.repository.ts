import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { enquiries } from './contact.tables.ts';

export type EnquiryRow = typeof enquiries.$inferSelect;
export interface EnquiryFilter {
  tenantId?: number;
  status?: string;
  keyword?: string;
}

export function createContactRepository({ db }: { db: DbOrTx }) {
  const where = (f: EnquiryFilter): SQL | undefined => {
    const like = f.keyword ? containing(f.keyword) : undefined;
    return and(
      f.tenantId !== undefined ? eq(enquiries.tenantId, f.tenantId) : undefined,
      f.status ? eq(enquiries.status, f.status) : undefined,
      like
        ? or(ilike(enquiries.name, like), ilike(enquiries.phone, like), ilike(enquiries.company, like))
        : undefined,
    );
  };

  return {
    async insert(row: typeof enquiries.$inferInsert): Promise<EnquiryRow> {
      const [created] = await db.insert(enquiries).values(row).returning();
      if (!created) throw new Error('enquiry insert returned nothing');
      return created;
    },

    async list(f: EnquiryFilter, page: { page: number; size: number }) {
      const rows = await db
        .select()
        .from(enquiries)
        .where(where(f))
        .orderBy(desc(enquiries.createdAt), desc(enquiries.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(enquiries).where(where(f));
      return { rows, total: count?.n ?? 0 };
    },

    /** `tenantId`: only an enquiry of that tenant (a tenant operator's scope); null: any. */
    async byIdForUpdate(id: number, tenantId: number | null) {
      const [row] = await db
        .select()
        .from(enquiries)
        .where(and(eq(enquiries.id, id), tenantId === null ? undefined : eq(enquiries.tenantId, tenantId)))
        .for('update');
      return row;
    },

    async markHandled(id: number, by: number | null, at: Date, note: string | null) {
      const [row] = await db
        .update(enquiries)
        .set({ status: 'HANDLED', handledBy: by, handledAt: at, handledNote: note })
        .where(eq(enquiries.id, id))
        .returning();
      return row;
    },
  };
}
