import { adminTenantSchema } from '@gpu/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app/server.ts';
import { fixedClock } from '../../platform/clock.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { createTestApp, testConfig } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { ledgerEntries } from '../billing/billing.tables.ts';
import { billingRecords } from '../instances/instances.tables.ts';
import { IMAGE, instanceTestApp } from '../instances/instances.test-helpers.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { VERSION_CHECK_MS } from './tenants.usecases.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers = admin,
  app: AppInstance = t.app,
) => app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const lastAudit = async (action: string, target: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
      .orderBy(desc(auditLog.id))
      .limit(1)
  )[0];

const settings = (over: Record<string, unknown> = {}) => ({
  logoUrl: '',
  theme: {
    primaryColor: '#0a8f6c',
    secondaryColor: '#13c2c2',
    backgroundColor: '#f5fffb',
    gradientStart: '#0a8f6c',
    gradientEnd: '#13c2c2',
  },
  homepage: { title: '青松算力', titleColor: '#ffffff', subtitle: '为科研而生', subtitleColor: '#e6fffb' },
  contact: { phone: '400-000-0000', email: 'hi@qingsong.example' },
  footer: { beianNumber: '京ICP备00000001号' },
  ...over,
});

const config = (host: string, app: AppInstance = t.app) =>
  app.inject({ method: 'GET', url: '/api/tenant/config', headers: { 'x-tenant-host': host } });
const market = async (host: string) =>
  (
    await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48', headers: { 'x-tenant-host': host } })
  ).json().data.list as { id: number; hostName: string; price: number }[];

let tenantId = 0;

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

describe('tenant hosts and tenant prices', () => {
  it('grants hosts, prices a SKU for the tenant only, and market and calculate-price follow', async () => {
    const all = await market('gpu.qingsong.example');
    expect(all.length).toBeGreaterThan(2);
    const pick = all[0] as { id: number; hostName: string; price: number };
    const hostsList = (await call('GET', '/api/admin/hosts?size=50')).json().data.list as {
      id: number;
      name: string;
    }[];
    const hostId = hostsList.find((h) => h.name === pick.hostName)?.id as number;

    const bad = await call('PUT', `/api/admin/tenants/${tenantId}/hosts`, { hostIds: [hostId, 999_999] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('hostIds');
    const granted = await call('PUT', `/api/admin/tenants/${tenantId}/hosts`, { hostIds: [hostId] });
    expect(granted.json().data).toEqual({ tenantId, hostIds: [hostId] });
    expect((await lastAudit('tenants.hosts', `tenant:${tenantId}`))?.detail).toEqual({
      before: [],
      after: [hostId],
    });
    const only = await market('gpu.qingsong.example');
    expect(new Set(only.map((i) => i.hostName))).toEqual(new Set([pick.hostName]));

    const price = await call('PUT', `/api/admin/tenants/${tenantId}/prices/${pick.id}`, {
      hourlyPrice: 9.99,
      dailyPrice: 100,
    });
    expect(price.statusCode, price.body).toBe(200);
    expect(price.json().data).toMatchObject({
      skuId: pick.id,
      hourlyPrice: 9.99,
      dailyPrice: 100,
      weeklyPrice: null,
    });
    const mine = (await market('gpu.qingsong.example')).find((i) => i.id === pick.id);
    expect(mine?.price).toBe(9.99);
    // Other tenants keep the platform price.
    expect((await market('localhost')).find((i) => i.id === pick.id)?.price).toBe(pick.price);

    const quote = async (billingType: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v2/package-billing/calculate-price',
          headers: { 'x-tenant-host': 'gpu.qingsong.example' },
          payload: { machineId: pick.id, billingType, duration: 2, gpuAmount: 1 },
        })
      ).json().data;
    expect((await quote('hourly')).unitPrice).toBe(9.99);
    expect((await quote('daily')).unitPrice).toBe(100);
    expect((await quote('daily')).originalAmount).toBe(200);

    const rows = (await call('GET', `/api/admin/tenants/${tenantId}/prices`)).json().data;
    expect(rows.find((r: { skuId: number }) => r.skuId === pick.id)).toMatchObject({
      basePrice: pick.price,
      hourlyPrice: 9.99,
    });
    expect(
      (await call('PUT', `/api/admin/tenants/${tenantId}/prices/${pick.id}`, { hourlyPrice: 'free' })).json()
        .message,
    ).toContain('hourlyPrice');

    expect((await call('DELETE', `/api/admin/tenants/${tenantId}/prices/${pick.id}`)).statusCode).toBe(200);
    expect((await market('gpu.qingsong.example')).find((i) => i.id === pick.id)?.price).toBe(pick.price);
    await call('PUT', `/api/admin/tenants/${tenantId}/hosts`, { hostIds: [] });
    expect((await market('gpu.qingsong.example')).length).toBe(all.length);
  });
});

describe('tenant prices reach create and metering', () => {
  // Its own world with a test clock: metering is driven by advancing it.
  const clock = fixedClock('2026-12-01T02:00:00Z');
  const host = 'gpu.pricing.example';
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  let boss: Record<string, string>;
  beforeAll(async () => {
    h = await instanceTestApp(clock);
    boss = await h.t.adminHeaders();
  });
  afterAll(() => h.t.close());
  const admin = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    h.t.app.inject({ method, url, headers: boss, payload: payload as object });
  const charges = async (instanceId: number) =>
    (
      await h.t.db
        .select()
        .from(ledgerEntries)
        .where(
          and(eq(ledgerEntries.referenceType, 'instance'), eq(ledgerEntries.referenceId, String(instanceId))),
        )
    )
      .filter((e) => e.kind === 'charge')
      .reduce((n, e) => n + e.amount, 0) / 10_000;
  const billed = async (instanceId: number) =>
    (await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, instanceId))).reduce(
      (n, b) => n + b.amount,
      0,
    ) / 10_000;

  it('charges a tenant customer the tenant’s package price at create and its hourly price by metering', async () => {
    const made = await admin('POST', '/api/admin/tenants', {
      code: 'pricing',
      name: '定价租户',
      domains: [host],
      config: settings(),
    });
    expect(made.statusCode, made.body).toBe(200);
    const tenantId = made.json().data.id as number;
    const skuId = await h.idOf('nm-a-l40s-01');
    const platform = (await h.market()).find((i) => i.id === skuId) as unknown as { price: number };
    expect(platform.price).toBe(3.98);
    const price = await admin('PUT', `/api/admin/tenants/${tenantId}/prices/${skuId}`, {
      hourlyPrice: 9.99,
      dailyPrice: 100,
    });
    expect(price.statusCode, price.body).toBe(200);

    const customer = await h.funded(500, host);
    expect(customer.user.tenantId).toBe(tenantId);
    const local = await h.funded(500);
    const order = { machineId: skuId, instanceName: 'tp', image: IMAGE, gpuAmount: 1 };

    // Package: the tenant's daily price is what the ledger takes at create.
    const pkg = await h.create(customer.headers, { ...order, billingType: 'daily', duration: 1 });
    expect(pkg.statusCode, pkg.body).toBe(200);
    const pkgId = pkg.json().data.id as number;
    expect((await h.view(customer.headers, pkgId)).status).toBe('RUNNING');
    expect(await charges(pkgId)).toBe(-100);
    expect(await billed(pkgId)).toBe(100);
    expect(await h.balance(customer.user.id)).toBe(400);

    // Pay-as-you-go: metering charges the tenant's hourly price; another tenant's customer on
    // the same SKU pays the platform price.
    const hourly = await h.create(customer.headers, { ...order, billingType: 'hourly' });
    const hourlyId = hourly.json().data.id as number;
    const other = await h.create(local.headers, { ...order, billingType: 'hourly' });
    const otherId = other.json().data.id as number;
    expect((await h.view(customer.headers, hourlyId)).hourlyPrice).toBe(9.99);
    expect((await h.view(local.headers, otherId)).hourlyPrice).toBe(3.98);
    clock.advance(60 * 60_000);
    await runMetering(h.deps);
    expect(await charges(hourlyId)).toBe(-9.99);
    expect(await billed(hourlyId)).toBe(9.99);
    expect(await h.balance(customer.user.id)).toBe(400 - 9.99);
    expect(await charges(otherId)).toBe(-3.98);
    expect(await h.balance(local.user.id)).toBe(500 - 3.98);
    // The package is paid up: metering took nothing more for it.
    expect(await charges(pkgId)).toBe(-100);
  });
});

describe('image uploads', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );

  it('stores a checked image in the database and serves it to anyone', async () => {
    const res = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { url, size } = res.json().data;
    expect(size).toBe(png.length);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(png)).toBe(true);
    // Usable as a logo.
    const edit = await call('PUT', `/api/admin/tenants/${tenantId}`, { config: settings({ logoUrl: url }) });
    expect(edit.json().data.config.logoUrl).toBe(url);
  });

  it('refuses content that is not the declared type, other types and large files', async () => {
    const lie = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/jpeg;base64,${png.toString('base64')}`,
    });
    expect(lie.statusCode).toBe(400);
    expect(lie.json().message).toContain('dataUrl');
    const svg = await call('POST', '/api/admin/uploads', { dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' });
    expect(svg.statusCode).toBe(400);
    const big = Buffer.concat([png, Buffer.alloc(600 * 1024)]);
    const large = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/png;base64,${big.toString('base64')}`,
    });
    expect(large.statusCode).toBe(400);
  });
});
