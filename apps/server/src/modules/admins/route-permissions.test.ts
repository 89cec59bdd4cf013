import { ADMIN_ROLES, type AdminRole, adminPermissions } from '@gpu/shared';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { registerAdminAccess } from './admin-access.plugin.ts';
import { ADMIN_ROUTE_PERMISSIONS, PLATFORM_ONLY_ROUTES, routeKey } from './route-permissions.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every admin route the app serves, as the table names them (`PUT /api/admin/hosts/:id`). */
async function servedAdminRoutes(): Promise<string[]> {
  const doc = (
    await t.app.inject({ url: '/api/admin/docs/json', headers: await t.adminHeaders() })
  ).json() as { paths: Record<string, object> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    path.startsWith('/api/admin/')
      ? Object.keys(ops).map((m) => routeKey(m, path.replace(/\{([^}]+)\}/g, ':$1')))
      : [],
  );
}

describe('the route → permission table', () => {
  it('names every admin route the app serves, and nothing it does not', async () => {
    const served = await servedAdminRoutes();
    expect(served.length).toBeGreaterThan(90);
    expect(served.filter((k) => !(k in ADMIN_ROUTE_PERMISSIONS))).toEqual([]);
    expect(Object.keys(ADMIN_ROUTE_PERMISSIONS).filter((k) => !served.includes(k))).toEqual([]);
  });

  it('an admin route missing from the table, or without requireAdmin, does not register', () => {
    const app = Fastify();
    const requireAdmin = async () => {};
    app.decorate('requireAdmin', requireAdmin);
    registerAdminAccess(app as never);
    expect(() => app.get('/api/admin/not-in-table', { onRequest: requireAdmin }, async () => 'x')).toThrow(
      /missing from ADMIN_ROUTE_PERMISSIONS/,
    );
    expect(() => app.get('/api/admin/hosts', async () => 'x')).toThrow(/has no requireAdmin/);
  });
});

/** Who the per-route check is run as: the four roles, and a tenant operator of each kind. */
const WHO: Array<{ name: string; role: AdminRole; tenantId: number | null }> = [
  ...ADMIN_ROLES.map((role) => ({ name: `role-${role.toLowerCase()}`, role, tenantId: null })),
  { name: 'tenant-ops', role: 'OPERATIONS', tenantId: 1 },
  { name: 'tenant-readonly', role: 'READONLY', tenantId: 1 },
];

/** Ids that exist nowhere (a permitted call answers 404 or 400, never changes a row). */
const fill = (url: string) =>
  url
    .replace(':sid', 'ffffffffffffffffffffffff')
    .replace(':type', 'docker')
    .replace(/:[a-zA-Z]+/g, '999999');

describe('each admin route, as each role', () => {
  it('answers 403 exactly when the role lacks the route’s permission', async () => {
    const mismatches: string[] = [];
    for (const who of WHO) {
      const headers = await t.adminHeaders(who.name, { role: who.role, tenantId: who.tenantId });
      const granted = adminPermissions(who.role, who.tenantId);
      for (const [key, permission] of Object.entries(ADMIN_ROUTE_PERMISSIONS)) {
        if (permission === 'public' || permission === 'self') continue;
        const [method, url] = key.split(' ') as [string, string];
        const res = await t.app.inject({
          method: method as 'GET',
          url: fill(url),
          headers,
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: { wrong: ['shape'] } }),
        });
        const allowed =
          granted.includes(permission) && !(who.tenantId !== null && PLATFORM_ONLY_ROUTES.has(key));
        const refused = res.statusCode === 403 && res.json().message === '当前角色无权执行此操作';
        if (allowed === refused) mismatches.push(`${who.name} ${key} → ${res.statusCode}`);
        if (res.statusCode >= 500) mismatches.push(`${who.name} ${key} → ${res.statusCode} ${res.body}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('an unknown role in the database reads as 只读 (fails closed)', async () => {
    const headers = await t.adminHeaders('odd-role', { role: 'NOBODY' as AdminRole });
    expect((await t.app.inject({ url: '/api/admin/hosts', headers })).statusCode).toBe(200);
    const write = await t.app.inject({ method: 'POST', url: '/api/admin/regions', headers, payload: {} });
    expect(write.statusCode).toBe(403);
  });

  it('the own-account routes stay open while a password change is forced; nothing else does', async () => {
    const headers = await t.adminHeaders('forced');
    await t.db.execute(`update admins set must_change_password = true where username = 'forced'` as never);
    const me = await t.app.inject({ url: '/api/admin/auth/me', headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      mustChangePassword: true,
      role: 'SUPER',
      roles: ['ADMIN', 'SUPER'],
    });
    expect((await t.app.inject({ url: '/api/admin/auth/sessions', headers })).statusCode).toBe(200);
    const hosts = await t.app.inject({ url: '/api/admin/hosts', headers });
    expect(hosts.statusCode).toBe(403);
    expect(hosts.json()).toMatchObject({ code: '403', message: '请先修改密码后再继续操作' });
  });
});
