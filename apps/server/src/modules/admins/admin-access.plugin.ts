import { adminPermissions, type RoutePermission } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { createError } from '../../platform/errors.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { type AuthAdmin, signedInAdmin } from '../auth/index.ts';
import { ADMIN_ROUTE_PERMISSIONS, PLATFORM_ONLY_ROUTES, routeKey } from './route-permissions.ts';

export const accessErrors = {
  forbidden: () => createError({ code: 'admin.forbidden', status: 403, message: '当前角色无权执行此操作' }),
  passwordChangeRequired: () =>
    createError({ code: 'admin.password_change_required', status: 403, message: '请先修改密码后再继续操作' }),
  totpEnrolRequired: () =>
    createError({ code: 'admin.totp_enrol_required', status: 403, message: '请先开启两步验证后再继续操作' }),
};

/** Whether `admin` may use the route `key` needing `permission`; throws the 403 that says why not. */
export function checkAdminAccess(admin: AuthAdmin, key: string, permission: RoutePermission) {
  if (permission === 'public' || permission === 'self') return;
  if (admin.mustChangePassword) throw accessErrors.passwordChangeRequired();
  if (admin.mustEnrolTotp) throw accessErrors.totpEnrolRequired();
  if (!adminPermissions(admin.role, admin.tenantId).includes(permission)) throw accessErrors.forbidden();
  if (admin.tenantId !== null && PLATFORM_ONLY_ROUTES.has(key)) throw accessErrors.forbidden();
}

/**
 * Puts every /api/admin/ route under ADMIN_ROUTE_PERMISSIONS: a route missing from the table, or
 * one needing an administrator without requireAdmin, fails at registration (the app does not
 * start). The check runs at onRequest right after requireAdmin, so a forbidden call is refused
 * before its body is read or validated.
 */
export function registerAdminAccess(app: AppInstance) {
  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith('/api/admin/')) return;
    const methods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) =>
      m === 'HEAD' ? 'GET' : m,
    );
    const needed = methods.map((method) => {
      const key = routeKey(method, options.url);
      const permission = ADMIN_ROUTE_PERMISSIONS[key];
      if (!permission) throw new Error(`${key}: missing from ADMIN_ROUTE_PERMISSIONS`);
      return permission;
    });
    if (needed.every((p) => p === 'public')) return;
    const route = options as unknown as { onRequest?: unknown };
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    if (!own.includes(app.requireAdmin))
      throw new Error(`${options.url}: needs an administrator but has no requireAdmin`);
    const check = async (request: FastifyRequest) => {
      const key = routeKey(request.method === 'HEAD' ? 'GET' : request.method, options.url);
      checkAdminAccess(signedInAdmin(request), key, ADMIN_ROUTE_PERMISSIONS[key] ?? 'admins:write');
    };
    route.onRequest = [...own, check];
  });
}
