import {
  auditActorSchema,
  auditListQuerySchema,
  auditLogSchema,
  envelopeSchema,
  pageSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { AuditDeps } from './audit.deps.ts';
import { auditActions, auditActors, listAuditLogs } from './audit.usecases.ts';

/** The audit log viewer's API (admin only). */
export async function auditRoutes(app: AppInstance, deps: AuditDeps) {
  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-audit'];

  app.get(
    '/api/admin/audit-logs',
    {
      ...admin,
      schema: {
        tags,
        summary: '审计日志（按管理员、操作、对象、日期筛选）',
        querystring: auditListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(auditLogSchema)) },
      },
    },
    async (request) => ok(await listAuditLogs(deps.db, request.query)),
  );

  app.get(
    '/api/admin/audit-logs/actions',
    {
      ...admin,
      schema: {
        tags,
        summary: '审计日志中出现过的操作',
        response: { 200: envelopeSchema(z.array(z.string())) },
      },
    },
    async () => ok(await auditActions(deps.db)),
  );

  app.get(
    '/api/admin/audit-logs/admins',
    {
      ...admin,
      schema: {
        tags,
        summary: '审计日志中出现过的管理员（按名称排序）',
        response: { 200: envelopeSchema(z.array(auditActorSchema)) },
      },
    },
    async () => ok(await auditActors(deps.db)),
  );
}
