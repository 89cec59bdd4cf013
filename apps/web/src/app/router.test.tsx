import type { User } from '@gpu/shared/auth';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Guard } from '../lib/routing/navigation';
import { clearAdminSession, clearUserSession, setAdminSession, setUserSession } from '../lib/session';
import { adminFixture } from '../test/admin-fixture';
import { renderApp } from '../test/render-app';
import { appRoutes, ROUTE_TABLE } from './router';

/** SPEC.md §2, route by route. */
const EXPECTED: Record<string, Guard> = {
  '/': 'public',
  '/market': 'public',
  '/cloud': 'public',
  '/contact': 'public',
  '/ai-navigation': 'public',
  '/subscribe': 'auth',
  '/console': 'auth',
  '/console/homepage': 'auth',
  '/console/instance': 'auth',
  '/console/images': 'auth',
  '/console/orders': 'auth',
  '/console/bills': 'auth',
  '/console/recharge-orders': 'auth',
  '/console/vouchers': 'auth',
  '/console/account-security': 'auth',
  '/console/spending-caps': 'auth',
  // Issue 31: the message centre and notification settings.
  '/console/messages': 'auth',
  '/console/notification-settings': 'auth',
  '/console/api-docs': 'auth',
  '/recharge': 'auth',
  '/blockchain': 'auth',
  '/user': 'auth',
  '/login': 'guest',
  '/register': 'guest',
  '/forgot-password': 'guest',
  '/admin/login': 'adminGuest',
  '/admin': 'admin',
  '/admin/dashboard': 'admin',
  '/admin/tenants': 'admin',
  '/admin/tenant-hosts': 'admin',
  '/admin/discount-config': 'admin',
  '/admin/voucher-config': 'admin',
  '/admin/voucher-distribution': 'admin',
  '/admin/host-management': 'admin',
  '/admin/tenant-host-pricing': 'admin',
  '/admin/balance-monitoring': 'admin',
  '/admin/user-management': 'admin',
  '/admin/instance-management': 'admin',
  // Not in SPEC.md §2: the audit log viewer of the back office (issue 12).
  '/admin/audit-logs': 'admin',
  '/admin/enquiries': 'admin',
  '/admin/admins': 'admin',
  '/admin/security': 'admin',
  '*': 'public',
};

// antd is a lazy chunk now (AntdScope): transformed once here, not inside a test's 1 s wait.
beforeAll(async () => {
  await import('./antd-providers');
  await import('./layouts/AuthLayout');
  await import('../features/auth/pages/LoginPage');
  await import('./layouts/AdminLayout');
  await import('../features/admin-promotions/pages/AdminDashboardPage');
}, 60_000);

describe('route table', () => {
  const all = ROUTE_TABLE.flatMap((group) => group.routes);

  it('has every route of SPEC.md §2 once, with its guard, and nothing else', () => {
    expect(Object.fromEntries(all.map((r) => [r.path, r.guard]))).toEqual(EXPECTED);
    expect(all).toHaveLength(Object.keys(EXPECTED).length);
  });

  it('titles every route but the homepage', () => {
    for (const route of all) expect(Boolean(route.title)).toBe(route.path !== '/');
  });

  it('redirects /console and /admin to their first child', () => {
    expect(all.find((r) => r.path === '/console')).toMatchObject({ redirect: '/console/instance' });
    expect(all.find((r) => r.path === '/admin')).toMatchObject({ redirect: '/admin/dashboard' });
  });
});

const renderAt = (path: string) => renderApp(appRoutes, path);

const here = (router: ReturnType<typeof renderAt>) =>
  router.state.location.pathname + router.state.location.search;

describe('the app routes', () => {
  it('sends a visitor on a console page to login, titled after the route and tenant', async () => {
    const router = renderAt('/console/orders?page=2');
    await waitFor(() => expect(here(router)).toBe('/login?redirect=%2Fconsole%2Forders%3Fpage%3D2'));
    await waitFor(() => expect(document.title).toBe('登录 - 算力云平台'));
    expect(await screen.findByTestId('login-form', {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('sends a logged-in user from /login to /market', async () => {
    setUserSession('tok', { id: 1, username: 'u1' } as User);
    const router = renderAt('/login');
    await waitFor(() => expect(here(router)).toBe('/market'));
    clearUserSession();
  });

  it('takes an admin from /admin to /admin/dashboard', async () => {
    setAdminSession('adm', adminFixture());
    const router = renderAt('/admin');
    await waitFor(() => expect(here(router)).toBe('/admin/dashboard'));
    try {
      // The first import of the back office's chunks (layout, texts, dashboard) in jsdom takes
      // seconds on a loaded two-core machine: the wait is for that, not for the app.
      expect(await screen.findByTestId('admin-figures', {}, { timeout: 15_000 })).toBeTruthy();
    } finally {
      clearAdminSession();
    }
  }, 20_000);

  it('renders the homepage with the tenant texts and just the tenant name as title', async () => {
    renderAt('/');
    expect(await screen.findByText(DEFAULT_TENANT_CONFIG.homepage.title)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(DEFAULT_TENANT_CONFIG.tenantName));
  });
});
