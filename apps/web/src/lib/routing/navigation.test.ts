import { describe, expect, it } from 'vitest';
import {
  afterLogoutPath,
  documentTitle,
  guardRedirect,
  postAdminLoginPath,
  postLoginPath,
  redirectTarget,
} from './navigation';

const visitor = { loggedIn: false, admin: false };
const user = { loggedIn: true, admin: false };
const admin = { loggedIn: false, admin: true };
const at = (url: string) => {
  const u = new URL(url, 'http://x');
  return { pathname: u.pathname, search: u.search };
};

describe('guardRedirect', () => {
  it('lets anyone see public routes', () => {
    for (const who of [visitor, user, admin]) expect(guardRedirect('public', at('/market'), who)).toBeNull();
  });

  it('sends a visitor on an auth route to /login with the path and query as redirect', () => {
    const to = guardRedirect('auth', at('/subscribe?skuGpuId=7&billingType=daily'), visitor);
    expect(to).toBe('/login?redirect=%2Fsubscribe%3FskuGpuId%3D7%26billingType%3Ddaily');
    expect(new URL(to ?? '', 'http://x').searchParams.get('redirect')).toBe(
      '/subscribe?skuGpuId=7&billingType=daily',
    );
    expect(guardRedirect('auth', at('/console/orders'), user)).toBeNull();
    // an admin session is not a user session
    expect(guardRedirect('auth', at('/user'), admin)).toBe('/login?redirect=%2Fuser');
  });

  it('sends a logged-in user away from the auth pages to /market', () => {
    for (const page of ['/login', '/register', '/forgot-password?phone=13800000000']) {
      expect(guardRedirect('guest', at(page), user)).toBe('/market');
      expect(guardRedirect('guest', at(page), visitor)).toBeNull();
    }
  });

  it('moves a user who just logged in on to the redirect query', () => {
    expect(guardRedirect('guest', at('/login?redirect=%2Fconsole'), user)).toBe('/console');
  });

  it('sends a non-admin on an admin route to /admin/login with a redirect', () => {
    expect(guardRedirect('admin', at('/admin/tenants?page=2'), visitor)).toBe(
      '/admin/login?redirect=%2Fadmin%2Ftenants%3Fpage%3D2',
    );
    expect(guardRedirect('admin', at('/admin/tenants'), user)).toBe(
      '/admin/login?redirect=%2Fadmin%2Ftenants',
    );
    expect(guardRedirect('admin', at('/admin/tenants'), admin)).toBeNull();
  });

  it('sends a non-admin on exactly /admin to /admin/login', () => {
    expect(guardRedirect('admin', at('/admin'), visitor)).toBe('/admin/login');
  });

  it('sends an admin on /admin/login to /admin (or the admin redirect query)', () => {
    expect(guardRedirect('adminGuest', at('/admin/login'), admin)).toBe('/admin');
    expect(guardRedirect('adminGuest', at('/admin/login?redirect=%2Fadmin%2Fhosts'), admin)).toBe(
      '/admin/hosts',
    );
    expect(guardRedirect('adminGuest', at('/admin/login?redirect=%2Fconsole'), admin)).toBe('/admin');
    expect(guardRedirect('adminGuest', at('/admin/login'), user)).toBeNull();
  });
});

describe('redirect targets', () => {
  it('go to the redirect query or /market after login', () => {
    expect(postLoginPath('?redirect=%2Fsubscribe%3FskuGpuId%3D1')).toBe('/subscribe?skuGpuId=1');
    expect(postLoginPath('')).toBe('/market');
  });

  it('never leave the site', () => {
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '',
    ]) {
      expect(redirectTarget(`?redirect=${encodeURIComponent(bad)}`)).toBeNull();
    }
  });

  it('keep admin redirects under /admin', () => {
    expect(postAdminLoginPath('?redirect=%2Fadmin')).toBe('/admin');
    expect(postAdminLoginPath('?redirect=%2Fadministrator')).toBe('/admin');
    expect(postAdminLoginPath('?redirect=%2Fadmin%2Fhosts%3Fx%3D1')).toBe('/admin/hosts?x=1');
  });
});

describe('logout and titles', () => {
  it('leaves auth routes for /market after logout, stays elsewhere', () => {
    expect(afterLogoutPath('auth')).toBe('/market');
    expect(afterLogoutPath('public')).toBeNull();
  });

  it('titles pages "<route title> - <platform>" or just the platform', () => {
    expect(documentTitle('算力市场', '极光智算')).toBe('算力市场 - 极光智算');
    expect(documentTitle(undefined, '极光智算')).toBe('极光智算');
  });
});
