import { AUDIT_ACTIONS, type AuditAction } from '@gpu/shared';
import { and, desc, eq, getTableColumns, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import {
  cappedCount,
  cappedTableCount,
  cappedTableTotal,
  cappedTotal,
} from '../../platform/db/capped-count.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { rowsOf } from '../../platform/db/rows.ts';
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

const KNOWN_ACTIONS = new Set<string>(AUDIT_ACTIONS);

/** A row of the log as the screen lists it: the entry and its administrator's name. */
export type AuditRow = typeof auditLog.$inferSelect & { adminName: string | null };
const LISTED = { ...getTableColumns(auditLog), adminName: admins.username };
const NEWEST_FIRST = [desc(auditLog.createdAt), desc(auditLog.id)];

/**
 * The log as it opens (no filter, newest first): the page's ids from the time index, then their
 * rows and admins with the capped total riding along, each a statement built and planned once
 * (issue 33: built and planned on every view, the page and its count took more time to plan
 * than to run, about 0.35 ms of PostgreSQL and as much of Node per view). Two statements, as
 * the users page (`rowsOfIds`): with the offset in the same statement, its generic plan would
 * take the offset for a tenth of the log.
 */
const openingIds = preparedStatement('audit_log_page_ids', (db) =>
  db
    .select({ id: auditLog.id })
    .from(auditLog)
    .orderBy(...NEWEST_FIRST)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset')),
);
const openingPage = preparedStatement('audit_log_page', (db) =>
  db
    .select({ ...LISTED, total: cappedTableCount('audit_log') })
    .from(auditLog)
    .leftJoin(admins, eq(admins.id, auditLog.adminId))
    .where(sql`${auditLog.id} = any(${sql.placeholder('ids')}::bigint[])`),
);

export function createAuditRepository({ db }: { db: DbOrTx }) {
  const where = (f: AuditFilter): SQL | undefined =>
    and(
      f.adminId !== undefined ? eq(auditLog.adminId, f.adminId) : undefined,
      // A whole action (the screen's pick) is an equality the index serves in order; else a prefix.
      f.action
        ? KNOWN_ACTIONS.has(f.action)
          ? eq(auditLog.action, f.action)
          : ilike(auditLog.action, `${escapeLike(f.action)}%`)
        : undefined,
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

    async list(
      f: AuditFilter,
      page: { page: number; size: number },
    ): Promise<{ rows: AuditRow[]; total: number; totalCapped?: true }> {
      const w = where(f);
      if (!w) {
        const offset = (page.page - 1) * page.size;
        const ids = (await openingIds(db, { limit: page.size, offset })).map((r) => r.id);
        const found = ids.length > 0 ? await openingPage(db, { ids }) : [];
        // Past the last page there is no row to carry the total: the statements below count it.
        if (found[0]) {
          // Put in the ids' order (newest first) here: the ids came sorted, so a sort in the
          // statement would only sort them again.
          const byId = new Map(found.map(({ total: _, ...row }) => [row.id, row]));
          const rows = ids.map((id) => byId.get(id)).filter((r): r is AuditRow => r !== undefined);
          return { rows, ...cappedTotal(Number(found[0].total)) };
        }
      }
      // The page's ids first, from the index alone (time or the filter's), then only their rows:
      // with the OFFSET on the joined rows, page 1,000 read 20,000 rows and their admins.
      const ids = db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(w)
        .orderBy(...NEWEST_FIRST)
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [rows, count] = await Promise.all([
        db
          .select(LISTED)
          .from(auditLog)
          .leftJoin(admins, eq(admins.id, auditLog.adminId))
          .where(inArray(auditLog.id, ids))
          .orderBy(...NEWEST_FIRST),
        w ? cappedCount(db, sql`select 1 from ${auditLog} where ${w}`) : cappedTableTotal(db, 'audit_log'),
      ]);
      return { rows, ...count };
    },

    /**
     * The distinct actions seen, for the viewer's filter: a loose index scan (one index probe
     * per distinct action) instead of reading the whole log.
     */
    async actions(): Promise<string[]> {
      const rows = await rowsOf<{ action: string }>(
        db,
        sql`
        with recursive a(action) as (
          (select action from audit_log order by action limit 1)
          union all
          select (select l.action from audit_log l where l.action > a.action order by l.action limit 1)
          from a where a.action is not null
        )
        select action from a where action is not null`,
      );
      return rows.map((r) => r.action);
    },

    /** The distinct administrators seen (by name, then id), for the viewer's admin filter; a loose index scan too. */
    async actors(): Promise<{ adminId: number; adminName: string | null }[]> {
      const rows = await rowsOf<{ admin_id: number; admin_name: string | null }>(
        db,
        sql`
        with recursive a(admin_id) as (
          (select admin_id from audit_log where admin_id is not null order by admin_id limit 1)
          union all
          select (select l.admin_id from audit_log l where l.admin_id > a.admin_id order by l.admin_id limit 1)
          from a where a.admin_id is not null
        )
        select a.admin_id::int as admin_id, ad.username as admin_name
        from a left join admins ad on ad.id = a.admin_id
        where a.admin_id is not null
        order by ad.username, a.admin_id`,
      );
      return rows.map((r) => ({
        adminId: r.admin_id,
        adminName: r.admin_name,
      }));
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
