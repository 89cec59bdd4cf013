import { and, desc, eq } from 'drizzle-orm';
import type { AppInstance } from '../../platform/http/types.ts';
import type { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';

export type T = Awaited<ReturnType<typeof createTestApp>>;

export const settings = (over: Record<string, unknown> = {}) => ({
  logoUrl: '',
  theme: {
    primaryColor: '#0a8f6c',
    secondaryColor: '#13c2c2',
    backgroundColor: '#f5fffb',
    gradientStart: '#0a8f6c',
    gradientEnd: '#13c2c2',
  },
  homepage: { title: '青松算力', titleColor: '#ffffff', subtitle: '为科研而生', subtitleColor: '#e6fffb' },
  contact: { phone: '400-000-0000', email: 'hi@qingsong.example' },
  footer: { beianNumber: '京ICP备00000001号' },
  ...over,
});

/**
 * Admin calls and tenant-facing reads against one test file's app. Each file passes its own: test
 * files share modules in a worker (isolate: false), so nothing here may keep an app.
 */
export function tenantsAdminCalls(testApp: () => T, admin: () => Record<string, string>) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers = admin(),
    app: AppInstance = testApp().app,
  ) => app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const lastAudit = async (action: string, target: string) =>
    (
      await testApp()
        .db.select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];

  const config = (host: string, app: AppInstance = testApp().app) =>
    app.inject({ method: 'GET', url: '/api/tenant/config', headers: { 'x-tenant-host': host } });
  const market = async (host: string) =>
    (
      await testApp().app.inject({
        method: 'GET',
        url: '/api/gpu/market?size=48',
        headers: { 'x-tenant-host': host },
      })
    ).json().data.list as { id: number; hostName: string; price: number }[];

  /** The tenant the create test of tenants-admin.test.ts makes; the other files start from it. */
  const createQingsong = async () => {
    const res = await call('POST', '/api/admin/tenants', {
      code: 'qingsong',
      name: '青松算力',
      domains: ['GPU.Qingsong.example'],
      config: settings(),
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json().data.id as number;
  };

  return { call, lastAudit, config, market, createQingsong };
}
