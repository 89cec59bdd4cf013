import type { AdminActor, AuditAction, AuditListQuery, AuditLogEntry, AuditTarget, Page } from '@gpu/shared';
import { shanghaiDayRange } from '@gpu/shared/time';
import type { DbOrTx } from '../../platform/db/client.ts';
import { createAuditRepository } from './audit.repository.ts';

/**
 * Records one admin write in the caller's transaction, so the change and its audit row commit
 * together. `detail` is `{ before, after }` for edits, or whatever explains the action.
 */
export function recordAudit(
  tx: DbOrTx,
  actor: AdminActor,
  action: AuditAction,
  target: AuditTarget,
  detail?: unknown,
) {
  return createAuditRepository({ db: tx }).record({
    adminId: actor.adminId || null,
    action,
    target,
    detail,
    ip: actor.ip,
  });
}

export async function listAuditLogs(db: DbOrTx, q: AuditListQuery): Promise<Page<AuditLogEntry>> {
  const repo = createAuditRepository({ db });
  const range = shanghaiDayRange(q.startDate, q.endDate);
  const { rows, total, totalCapped } = await repo.list(
    { adminId: q.adminId, action: q.action, target: q.target, ...range },
    { page: q.page, size: q.size },
  );
  return {
    list: rows.map((log) => ({
      id: log.id,
      adminId: log.adminId,
      adminName: log.adminName ?? null,
      action: log.action,
      target: log.target,
      detail: log.detail ?? null,
      ip: log.ip,
      createdAt: log.createdAt.toISOString(),
    })),
    total,
    page: q.page,
    size: q.size,
    ...(totalCapped && { totalCapped }),
  };
}

export const auditActions = (db: DbOrTx) => createAuditRepository({ db }).actions();

export const auditActors = (db: DbOrTx) => createAuditRepository({ db }).actors();
