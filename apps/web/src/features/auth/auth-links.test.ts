import { describe, expect, it } from 'vitest';
import { authLink, phoneFromSearch } from './auth-links';

describe('authLink', () => {
  it('carries the typed phone and the redirect query', () => {
    expect(authLink('/forgot-password', { phone: '138' })).toBe('/forgot-password?phone=138');
    expect(authLink('/forgot-password', { phone: '  ' })).toBe('/forgot-password');
    expect(authLink('/register', { search: '?redirect=%2Fsubscribe%3Fa%3D1&x=1' })).toBe(
      '/register?redirect=%2Fsubscribe%3Fa%3D1',
    );
    expect(authLink('/login', { phone: '13800138000', search: '?redirect=/user' })).toBe(
      '/login?phone=13800138000&redirect=%2Fuser',
    );
    expect(authLink('/login', {})).toBe('/login');
  });
});

describe('phoneFromSearch', () => {
  it('prefills digits only, at most 11', () => {
    expect(phoneFromSearch('?phone=13800138000')).toBe('13800138000');
    expect(phoneFromSearch('?phone=138-0013-8000-99')).toBe('13800138000');
    expect(phoneFromSearch('?x=1')).toBe('');
  });
});
