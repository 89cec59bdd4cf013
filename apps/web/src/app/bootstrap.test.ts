import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, STORAGE_KEYS } from '../lib/session';
import { adminFixture } from '../test/admin-fixture';
import { bootstrap } from './bootstrap';

const aurora = {
  ...DEFAULT_TENANT_CONFIG,
  tenantId: 2,
  tenantCode: 'aurora',
  tenantName: '极光智算',
  theme: { ...DEFAULT_TENANT_CONFIG.theme, primaryColor: '#0a8f6c' },
};

afterEach(() => vi.unstubAllGlobals());

describe('start-up', () => {
  it('loads the tenant first, then restores the admin session, then renders', async () => {
    localStorage.setItem(STORAGE_KEYS.adminToken, 'adm');
    localStorage.setItem(STORAGE_KEYS.adminUser, JSON.stringify(adminFixture()));
    const seenDuringFetch: unknown[] = [];
    const fetch = vi.fn(async (_url: string) => {
      seenDuringFetch.push(getSession().adminToken);
      return Response.json({ success: true, code: '200', message: 'ok', data: aurora });
    });
    vi.stubGlobal('fetch', fetch);
    const render = vi.fn(() => expect(getSession().admin?.username).toBe('admin'));

    await bootstrap(render);

    expect(fetch.mock.calls[0]?.[0]).toBe('/api/tenant/config');
    expect(seenDuringFetch).toEqual([null]);
    expect(render).toHaveBeenCalledWith(expect.objectContaining({ tenantName: '极光智算' }));
  });

  it('renders with the default tenant config when loading fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    const render = vi.fn();
    await bootstrap(render);
    expect(render).toHaveBeenCalledWith(DEFAULT_TENANT_CONFIG);
  });

  it('treats a malformed config as a failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ success: true, code: '200', message: 'ok', data: { tenantName: 1 } }),
      ),
    );
    const render = vi.fn();
    await bootstrap(render);
    expect(render).toHaveBeenCalledWith(DEFAULT_TENANT_CONFIG);
  });
});
