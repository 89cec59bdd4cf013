import { and, desc, eq } from 'drizzle-orm';
import type { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';

export type T = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Admin calls and audit reads against one test file's app. Each file passes its own: test files
 * share modules in a worker (isolate: false), so nothing here may keep an app.
 */
export function catalogueCalls(app: () => T, admin: () => Record<string, string>) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers = admin(),
  ) =>
    app().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const lastAudit = async (action: string, target?: string) =>
    (
      await app()
        .db.select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), target ? eq(auditLog.target, target) : undefined))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];

  return { call, lastAudit };
}
