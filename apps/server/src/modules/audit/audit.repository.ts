import type { AuditAction } from '@gpu/shared';
import { and, asc, desc, eq, gte, ilike, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { admins } from '../auth/auth.tables.ts';
import { auditLog } from './audit.tables.ts';

export interface AuditEntry {
  adminId: number | null;
  action: AuditAction;
  target?: string | null;
  detail?: unknown;
  ip?: string | null;
}

export interface AuditFilter {
  adminId?: number;
  /** A prefix: `hosts` matches `hosts.create`, `hosts.update`… */
  action?: string;
  /** A prefix: `user:12` or `host:`. */
  target?: string;
  from?: Date;
  toExclusive?: Date;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createAuditRepository({ db }: { db: DbOrTx }) {
  const where = (f: AuditFilter): SQL | undefined =>
    and(
      f.adminId !== undefined ? eq(auditLog.adminId, f.adminId) : undefined,
      f.action ? ilike(auditLog.action, `${escapeLike(f.action)}%`) : undefined,
      f.target ? ilike(auditLog.target, `${escapeLike(f.target)}%`) : undefined,
      f.from ? gte(auditLog.createdAt, f.from) : undefined,
      f.toExclusive ? lt(auditLog.createdAt, f.toExclusive) : undefined,
    );

  return {
    async record(entry: AuditEntry) {
      await db.insert(auditLog).values({
        adminId: entry.adminId,
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ?? null,
        ip: entry.ip ?? null,
      });
    },

    async list(f: AuditFilter, page: { page: number; size: number }) {
      const rows = await db
        .select({ log: auditLog, adminName: admins.username })
        .from(auditLog)
        .leftJoin(admins, eq(admins.id, auditLog.adminId))
        .where(where(f))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(where(f));
      return { rows, total: count?.n ?? 0 };
    },

    /** The distinct actions seen, for the viewer's filter. */
    async actions(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ action: auditLog.action })
        .from(auditLog)
        .orderBy(auditLog.action);
      return rows.map((r) => r.action);
    },

    /** The distinct administrators seen (by name, then id), for the viewer's admin filter. */
    async actors(): Promise<{ adminId: number; adminName: string | null }[]> {
      const rows = await db
        .selectDistinct({ adminId: auditLog.adminId, adminName: admins.username })
        .from(auditLog)
        .leftJoin(admins, eq(admins.id, auditLog.adminId))
        .where(isNotNull(auditLog.adminId))
        .orderBy(asc(admins.username), asc(auditLog.adminId));
      return rows.map((r) => ({ adminId: r.adminId as number, adminName: r.adminName }));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
