import { adminPermissions } from '@gpu/shared/admin-access';
import type { Admin } from '@gpu/shared/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../app/router';
import { ADMIN_PAGES, adminLanding, mayOpen } from '../../lib/admin-access';
import { clearAdminSession, getSession, setAdminSession } from '../../lib/session';
import { adminFixture } from '../../test/admin-fixture';
import { type ApiAnswer, ok, restoreApi, stubApi } from '../../test/api-stub';
import { renderApp } from '../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

// antd and the admin layout are lazy chunks: transformed once here, not inside a 1 s wait.
beforeAll(async () => {
  await import('../../app/antd-providers');
  await import('../../app/layouts/AdminLayout');
  await import('../../app/layouts/AuthLayout');
  await import('./pages/AdminSecurityPage');
  await import('./pages/AdminLoginPage');
}, 60_000);

afterEach(() => {
  restoreApi();
  clearAdminSession();
});

const readonly = adminFixture('READONLY', { id: 2, username: 'viewer' });
const tenantOperator = adminFixture('OPERATIONS', {
  id: 3,
  username: 'shop',
  tenantId: 7,
  tenantName: '极光',
});

/** The back office with `admin` signed in; /admin/auth/me answers `me` (default: the same admin). */
function openAs(admin: Admin, path: string, extra: Record<string, ApiAnswer> = {}, me: Admin = admin) {
  setAdminSession('adm', admin);
  stubApi((url, init) => {
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    if (key === 'GET /api/admin/auth/me') return ok(me);
    return extra[key] ?? ok([]);
  });
  return renderApp(appRoutes, path);
}
const here = (router: ReturnType<typeof renderApp>) => router.state.location.pathname;
const menuLabels = async () => {
  const menu = await screen.findByTestId('admin-menu', {}, { timeout: 10_000 });
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
};

describe('the page → permission table', () => {
  it('lets a super administrator open everything and lands on the dashboard', () => {
    const all = adminPermissions('SUPER', null);
    for (const page of ADMIN_PAGES) expect(mayOpen({ permissions: all }, page.path)).toBe(true);
    expect(adminLanding({ permissions: all })).toBe('/admin/dashboard');
  });

  it('keeps administrators and platform areas from a tenant operator, which lands on its first page', () => {
    const perms = { permissions: adminPermissions('OPERATIONS', 7) };
    expect(mayOpen(perms, '/admin/admins')).toBe(false);
    expect(mayOpen(perms, '/admin/host-management')).toBe(false);
    expect(mayOpen(perms, '/admin/dashboard')).toBe(false);
    expect(mayOpen(perms, '/admin/security')).toBe(true);
    expect(mayOpen(perms, '/admin/enquiries')).toBe(true);
    expect(adminLanding(perms)).toBe('/admin/tenants');
    expect(adminLanding({ permissions: [] })).toBe('/admin/security');
  });
});

describe('the back office layout', () => {
  it('shows a read-only administrator the reading menu, its role, and a 403 for 管理员', async () => {
    const router = openAs(readonly, '/admin/admins');
    expect(await screen.findByTestId('admin-forbidden', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('当前角色无权访问此页面')).toBeTruthy();
    expect(here(router)).toBe('/admin/admins');
    const labels = await menuLabels();
    expect(labels).toContain('主机与GPU管理');
    expect(labels).toContain('账号安全');
    expect(labels).not.toContain('管理员');
    expect(screen.getByTestId('admin-role').textContent).toBe('只读');
  });

  it('lands a tenant operator from /admin on its first page and names its tenant', async () => {
    const router = openAs(tenantOperator, '/admin');
    await waitFor(() => expect(here(router)).toBe('/admin/tenants'), { timeout: 10_000 });
    expect((await screen.findByTestId('admin-role')).textContent).toBe('运营 · 租户 极光');
    const labels = await menuLabels();
    expect(labels).not.toContain('仪表盘');
    expect(labels).not.toContain('主机与GPU管理');
    expect(labels).toContain('实例管理');
  });

  it('sends an administrator who must change the password to 账号安全, with the reason', async () => {
    const forced = adminFixture('FINANCE', { mustChangePassword: true });
    const router = openAs(forced, '/admin/balance-monitoring', {
      'GET /api/admin/auth/sessions': ok([]),
    });
    await waitFor(() => expect(here(router)).toBe('/admin/security'), { timeout: 10_000 });
    expect((await screen.findByTestId('forced-step')).textContent).toContain('请先修改密码');
    expect(await menuLabels()).toEqual(['账号安全']);
  });

  it('takes up the role the server answers now (the stored copy follows /admin/auth/me)', async () => {
    openAs(adminFixture('SUPER'), '/admin/admins', {}, readonly);
    expect(await screen.findByTestId('admin-forbidden', {}, { timeout: 10_000 })).toBeTruthy();
    expect(getSession().admin?.role).toBe('READONLY');
  });
});

describe('admin sign-in with 2FA', () => {
  it('asks for the code after the password, and signs in with it', async () => {
    const bodies: unknown[] = [];
    stubApi((url, init) => {
      const key = `${init?.method ?? 'GET'} ${url.pathname}`;
      if (init?.body) bodies.push(JSON.parse(String(init.body)));
      if (key === 'POST /api/admin/auth/login') return ok({ mfaRequired: true, challenge: 'ch-1' });
      if (key === 'POST /api/admin/auth/totp/verify') return ok({ token: 'adm2', admin: adminFixture() });
      if (key === 'GET /api/admin/auth/me') return ok(adminFixture());
      return ok([]);
    });
    const router = renderApp(appRoutes, '/admin/login');
    fireEvent.change(await screen.findByTestId('username-input', {}, { timeout: 10_000 }), {
      target: { value: 'admin' },
    });
    fireEvent.change(screen.getByTestId('password-input'), { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByTestId('admin-login-submit'));
    const code = (await screen.findByTestId('totp-code-input', {}, { timeout: 5_000 })) as HTMLInputElement;
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    fireEvent.change(code, { target: { value: '12 34 56' } });
    fireEvent.click(screen.getByTestId('admin-totp-submit'));
    await waitFor(() => expect(getSession().adminToken).toBe('adm2'), { timeout: 5_000 });
    expect(bodies).toContainEqual({ challenge: 'ch-1', code: '123456' });
    await waitFor(() => expect(here(router)).toBe('/admin/dashboard'), { timeout: 10_000 });
  });

  it('goes back to the password step when the challenge has expired', async () => {
    stubApi((url, init) => {
      const key = `${init?.method ?? 'GET'} ${url.pathname}`;
      if (key === 'POST /api/admin/auth/login') return ok({ mfaRequired: true, challenge: 'ch-1' });
      if (key === 'POST /api/admin/auth/totp/verify')
        return {
          status: 401,
          body: { success: false, code: 'admin.challenge_invalid', message: '验证已过期', data: null },
        };
      return ok([]);
    });
    renderApp(appRoutes, '/admin/login');
    fireEvent.change(await screen.findByTestId('username-input', {}, { timeout: 10_000 }), {
      target: { value: 'admin' },
    });
    fireEvent.change(screen.getByTestId('password-input'), { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByTestId('admin-login-submit'));
    fireEvent.click(await screen.findByTestId('totp-switch-mode', {}, { timeout: 5_000 }));
    fireEvent.change(await screen.findByTestId('recovery-code-input'), { target: { value: 'abcde-12345' } });
    fireEvent.click(screen.getByTestId('admin-totp-submit'));
    const username = (await screen.findByTestId(
      'username-input',
      {},
      { timeout: 5_000 },
    )) as HTMLInputElement;
    expect(username.value).toBe('admin');
    expect(getSession().adminToken).toBeNull();
  });
});
