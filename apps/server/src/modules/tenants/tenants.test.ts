import { tenantConfigSchema } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, productionSettings } from '../../test/test-app.ts';
import { normalizeHost } from './tenants.models.ts';
import { tenants } from './tenants.tables.ts';

describe('tenant resolution', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const config = (headers: Record<string, string>, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/tenant/config${query}`, headers });

  it('answers the default tenant for localhost with the full SPEC config', async () => {
    const res = await config({ host: 'localhost:8080' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, code: '200' });
    const cfg = tenantConfigSchema.parse(body.data);
    expect(cfg.tenantCode).toBe('default');
    expect(cfg.domain).toBe('localhost');
    expect(cfg.theme.primaryColor).toBe('#200beb');
    expect(cfg.homepage.title.length).toBeGreaterThan(0);
    expect(cfg.contact.email).toContain('@');
    expect(cfg.footer.beianNumber).toContain('ICP');
  });

  it('prefers X-Tenant-Host over Host', async () => {
    const res = await config({ host: 'localhost:8080', 'x-tenant-host': '127.0.0.1' });
    const cfg = res.json().data;
    expect(cfg.tenantCode).toBe('aurora');
    expect(cfg.tenantName).toBe('极光智算');
    expect(cfg.theme.primaryColor).not.toBe('#200beb');
    expect(cfg.visibleRegionResources.length).toBe(3);
  });

  it('resolves by Host (with port) when no tenant header is sent', async () => {
    const res = await config({ host: '127.0.0.1:8080' });
    expect(res.json().data.tenantCode).toBe('aurora');
  });

  it('gives unknown hosts the default tenant', async () => {
    const res = await config({ host: 'unknown.example.com', 'x-tenant-host': 'nobody.example.org' });
    expect(res.json().data.tenantCode).toBe('default');
  });

  it('lets development pick a tenant by ?tenant= and rejects unknown codes with 404', async () => {
    expect((await config({ host: 'localhost' }, '?tenant=aurora')).json().data.tenantCode).toBe('aurora');
    const missing = await config({ host: 'localhost' }, '?tenant=nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('nope');
  });

  it('lists tenants outside production', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tenant/list' });
    expect(res.json().data.map((x: { tenantCode: string }) => x.tenantCode)).toEqual(['default', 'aurora']);
  });

  it('sends a disabled tenant’s hosts to the default tenant once the cache is refreshed', async () => {
    await t.db.update(tenants).set({ status: 'DISABLED' }).where(eq(tenants.code, 'aurora'));
    t.app.deps.modules.tenants.service.invalidate();
    expect((await config({ 'x-tenant-host': '127.0.0.1' })).json().data.tenantCode).toBe('default');
    await t.db.update(tenants).set({ status: 'ACTIVE' }).where(eq(tenants.code, 'aurora'));
    t.app.deps.modules.tenants.service.invalidate();
  });
});

describe('tenant routes in production', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ config: productionSettings() });
  });
  afterAll(() => t.close());

  it('ignores ?tenant= and hides the tenant list', async () => {
    const cfg = await t.app.inject({
      method: 'GET',
      url: '/api/tenant/config?tenant=aurora',
      headers: { host: 'localhost' },
    });
    expect(cfg.json().data.tenantCode).toBe('default');
    const list = await t.app.inject({ method: 'GET', url: '/api/tenant/list' });
    expect(list.statusCode).toBe(404);
  });
});

describe('normalizeHost', () => {
  it.each([
    ['LocalHost:8080', 'localhost'],
    ['127.0.0.1:3000', '127.0.0.1'],
    [' example.com ', 'example.com'],
    ['[::1]:8080', '[::1]'],
    [undefined, ''],
  ])('%s -> %s', (input, out) => {
    expect(normalizeHost(input)).toBe(out);
  });
});
