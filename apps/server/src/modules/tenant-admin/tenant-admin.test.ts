import { adminTenantSchema } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { buildServer, createTestApp, testConfig } from '../../test/test-app.ts';
import { VERSION_CHECK_MS } from '../tenants/tenants.usecases.ts';
import { settings, type T, tenantsAdminCalls } from './tenant-admin.test-helpers.ts';

let t: T;
let admin: Record<string, string>;
let tenantId = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const { call, lastAudit, config } = tenantsAdminCalls(
  () => t,
  () => admin,
);

describe('admin tenants: access and input', () => {
  it.each([
    ['GET', '/api/admin/tenants'],
    ['POST', '/api/admin/tenants'],
    ['PUT', '/api/admin/tenants/1'],
    ['PUT', '/api/admin/tenants/1/hosts'],
    ['GET', '/api/admin/tenants/1/prices'],
    ['PUT', '/api/admin/tenants/1/prices/1'],
    ['POST', '/api/admin/uploads'],
  ] as const)('%s %s: 401 for strangers and users', async (method, url) => {
    const body = method === 'GET' ? undefined : {};
    expect((await call(method, url, body, {})).statusCode).toBe(401);
    const { headers } = await t.createUser();
    expect([401, 403]).toContain((await call(method, url, body, headers)).statusCode);
  });

  it('names the bad field and changes nothing', async () => {
    const before = (await call('GET', '/api/admin/tenants')).json().data.length;
    const cases: [unknown, string][] = [
      [{ code: 'Bad Code', name: 'x', config: settings() }, 'code'],
      [
        { code: 'ok', name: 'x', config: settings({ theme: { ...settings().theme, primaryColor: 'red' } }) },
        'primaryColor',
      ],
      [{ code: 'ok', name: 'x', domains: ['has space.com'], config: settings() }, 'domains'],
      [{ code: 'ok', name: 'x', config: settings({ logoUrl: 'javascript:alert(1)' }) }, 'logoUrl'],
      [
        { code: 'ok', name: 'x', config: settings({ visibleRegionResources: [999_999] }) },
        'visibleRegionResources',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/admin/tenants', payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message, field).toContain(field);
    }
    expect((await call('GET', '/api/admin/tenants')).json().data.length).toBe(before);
  });

  it('answers 404 for unknown tenants and SKUs', async () => {
    expect((await call('GET', '/api/admin/tenants/999999')).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/tenants/999999', { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/tenants/999999/hosts')).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/tenants/999999/prices/1', { hourlyPrice: 1 })).statusCode).toBe(
      404,
    );
    expect((await call('PUT', '/api/admin/tenants/1/prices/999999', { hourlyPrice: 1 })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', '/api/admin/tenants/1/prices/999999')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/files/00000000-0000-0000-0000-000000000000' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('admin tenants: create and edit, live for the host', () => {
  it('creates a tenant that answers its domain at once', async () => {
    const res = await call('POST', '/api/admin/tenants', {
      code: 'qingsong',
      name: '青松算力',
      domains: ['GPU.Qingsong.example'],
      config: settings(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const tenant = adminTenantSchema.parse(res.json().data);
    tenantId = tenant.id;
    expect(tenant).toMatchObject({ code: 'qingsong', domains: ['gpu.qingsong.example'], status: 'ACTIVE' });
    const cfg = (await config('gpu.qingsong.example')).json().data;
    expect(cfg).toMatchObject({ tenantCode: 'qingsong', domain: 'gpu.qingsong.example' });
    expect(cfg.theme.primaryColor).toBe('#0a8f6c');
    expect(cfg.contact.supportUrl).toBe('');
    expect((await lastAudit('tenants.create', `tenant:${tenantId}`))?.detail).toMatchObject({
      after: { code: 'qingsong' },
    });
  });

  it('saves a demo tenant’s config back unchanged (rgba colours, site paths for images)', async () => {
    const aurora = (await call('GET', '/api/admin/tenants'))
      .json()
      .data.find((x: { code: string }) => x.code === 'aurora');
    const res = await call('PUT', `/api/admin/tenants/${aurora.id}`, {
      name: aurora.name,
      config: aurora.config,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.config).toEqual(aurora.config);
  });

  it('sets the enquiry products and the AI navigation page; bad values are refused by name', async () => {
    const host = 'gpu.qingsong.example';
    const tenant = (await call('GET', '/api/admin/tenants'))
      .json()
      .data.find((x: { id: number }) => x.id === tenantId);
    const put = (over: Record<string, unknown>) =>
      call('PUT', `/api/admin/tenants/${tenant.id}`, { config: { ...tenant.config, ...over } });
    const res = await put({
      enquiryProducts: ['H100 整机', 'A800 集群'],
      aiNavigationUrl: 'https://ai.example.com/',
    });
    expect(res.statusCode, res.body).toBe(200);
    await new Promise((r) => setTimeout(r, VERSION_CHECK_MS + 50));
    const products = await t.app.inject({
      method: 'GET',
      url: '/api/contact/products',
      headers: { 'x-tenant-host': host },
    });
    expect(products.json().data).toEqual(['H100 整机', 'A800 集群']);
    expect((await config(host)).json().data.aiNavigationUrl).toBe('https://ai.example.com/');
    for (const [over, field] of [
      [{ aiNavigationUrl: 'javascript:alert(1)' }, 'AI导航地址'],
      [{ enquiryProducts: ['A', 'A'] }, '咨询产品'],
    ] as const) {
      const bad = await put(over);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(field);
    }
  });

  it('refuses a domain another tenant holds and a taken code (409)', async () => {
    const taken = await call('PUT', `/api/admin/tenants/${tenantId}`, { domains: ['localhost'] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('localhost');
    expect(
      (await call('POST', '/api/admin/tenants', { code: 'aurora', name: 'x', config: settings() }))
        .statusCode,
    ).toBe(409);
    const def = (await call('GET', '/api/admin/tenants'))
      .json()
      .data.find((x: { isDefault: boolean }) => x.isDefault);
    expect((await call('PUT', `/api/admin/tenants/${def.id}`, { status: 'DISABLED' })).statusCode).toBe(400);
  });

  it('shows an edit on a second app on the same database within the version check, without restart', async () => {
    const clock = fixedClock(new Date());
    const replica = await buildServer({
      config: testConfig({ RATE_LIMITS: 'off' }),
      database: t.database,
      clock,
      webDist: '/nonexistent',
    });
    try {
      expect((await config('gpu.qingsong.example', replica)).json().data.tenantName).toBe('青松算力');
      const edit = await call('PUT', `/api/admin/tenants/${tenantId}`, {
        name: '青松智算',
        config: settings({ homepage: { ...settings().homepage, title: '新标题' } }),
      });
      expect(edit.statusCode, edit.body).toBe(200);
      // This app dropped its cache; the replica still holds its snapshot until the version check is due.
      expect((await config('gpu.qingsong.example')).json().data.homepage.title).toBe('新标题');
      expect((await config('gpu.qingsong.example', replica)).json().data.tenantName).toBe('青松算力');
      clock.advance(VERSION_CHECK_MS + 1);
      const fresh = (await config('gpu.qingsong.example', replica)).json().data;
      expect(fresh).toMatchObject({ tenantName: '青松智算', homepage: { title: '新标题' } });
      // A disabled tenant's host falls back to the default tenant on the replica too.
      await call('PUT', `/api/admin/tenants/${tenantId}`, { status: 'DISABLED' });
      clock.advance(VERSION_CHECK_MS + 1);
      expect((await config('gpu.qingsong.example', replica)).json().data.tenantCode).toBe('default');
      await call('PUT', `/api/admin/tenants/${tenantId}`, { status: 'ACTIVE' });
      clock.advance(VERSION_CHECK_MS + 1);
      expect((await config('gpu.qingsong.example', replica)).json().data.tenantCode).toBe('qingsong');
    } finally {
      await replica.close();
    }
    const audit = await lastAudit('tenants.update', `tenant:${tenantId}`);
    expect(audit?.detail).toMatchObject({ before: { status: 'DISABLED' }, after: { status: 'ACTIVE' } });
  });
});
