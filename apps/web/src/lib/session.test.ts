import type { Admin, User } from '@gpu/shared/auth';
import { describe, expect, it, vi } from 'vitest';
import { adminFixture } from '../test/admin-fixture';
import {
  clearAdminSession,
  clearUserSession,
  getSession,
  isAdmin,
  restoreSession,
  STORAGE_KEYS,
  setAdminSession,
  setUserSession,
  subscribeSession,
} from './session';

const user = { id: 1, tenantId: 1, username: 'u138', phone: '13800000000' } as User;
const admin: Admin = adminFixture('SUPER', { permissions: [] });

describe('session storage', () => {
  it('restores a stored user session', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    expect(restoreSession()).toMatchObject({ token: 'tok', user: { username: 'u138' } });
  });

  it.each([
    ['not JSON', '{oops'],
    ['not an object', '"u138"'],
    ['no username', '{"id":1}'],
  ])('clears the session when the stored user is malformed (%s)', (_label, raw) => {
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    localStorage.setItem(STORAGE_KEYS.user, raw);
    expect(restoreSession()).toMatchObject({ token: null, user: null });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('clears a stored admin that lacks permissions (stored before roles existed)', () => {
    const { permissions: _dropped, ...old } = admin;
    localStorage.setItem(STORAGE_KEYS.adminToken, 'adm');
    localStorage.setItem(STORAGE_KEYS.adminUser, JSON.stringify(old));
    expect(restoreSession()).toMatchObject({ adminToken: null, admin: null });
    expect(localStorage.getItem(STORAGE_KEYS.adminToken)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.adminToken, 'adm');
    localStorage.setItem(STORAGE_KEYS.adminUser, JSON.stringify({ ...admin, permissions: 'hosts:read' }));
    expect(restoreSession().admin).toBeNull();
    localStorage.setItem(STORAGE_KEYS.adminToken, 'adm');
    localStorage.setItem(STORAGE_KEYS.adminUser, JSON.stringify(admin));
    expect(restoreSession().admin).toMatchObject({ username: 'admin', permissions: [] });
    clearAdminSession();
  });

  it('drops half a session (token without user)', () => {
    sessionStorage.setItem(STORAGE_KEYS.token, 'tok');
    expect(restoreSession().token).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('keeps a remembered session in localStorage and a short one in sessionStorage', () => {
    setUserSession('a', user, true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('a');
    setUserSession('b', user, false);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBe('b');
    expect(getSession().token).toBe('b');
    clearUserSession();
    expect(getSession()).toMatchObject({ token: null, user: null });
  });

  it('stores and clears the admin session, leaving the user session alone', () => {
    setUserSession('u', user);
    setAdminSession('adm', admin);
    expect(getSession()).toMatchObject({ token: 'u', adminToken: 'adm', admin: { username: 'admin' } });
    clearAdminSession();
    expect(getSession()).toMatchObject({ token: 'u', adminToken: null, admin: null });
    clearUserSession();
  });

  it('notifies subscribers on every change', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    setUserSession('u', user);
    clearUserSession();
    unsubscribe();
    setUserSession('u', user);
    expect(listener).toHaveBeenCalledTimes(2);
    clearUserSession();
  });

  it('recognises an admin by role ADMIN or the admin flag', () => {
    expect(isAdmin({ adminToken: 't', admin })).toBe(true);
    expect(isAdmin({ adminToken: 't', admin: { ...admin, roles: ['AUDITOR'] } })).toBe(false);
    expect(isAdmin({ adminToken: 't', admin: { ...admin, roles: [], isAdmin: true } as Admin })).toBe(true);
    expect(isAdmin({ adminToken: null, admin })).toBe(false);
  });
});
