import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { enquiries } from '../contact/contact.tables.ts';
import { discounts } from '../discounts/discounts.tables.ts';
import { settings, tenantsAdminCalls } from '../tenant-admin/tenant-admin.test-helpers.ts';
import { tenantDomains, tenantSkuPrices, tenants } from '../tenants/tenants.tables.ts';
import { voucherConfigs, vouchers } from '../vouchers/vouchers.tables.ts';

/**
 * Issue 29: a tenant operator (an administrator bound to tenant A) sees and changes only A's
 * enquiries, discounts, voucher configs and distributions, prices and tenant; B's ids are "not
 * found" and B's rows stay as they were. Instances and users: tenant-operators-instances.test.ts.
 */
type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let platform: Record<string, string>;
let opsA: Record<string, string>;
let roA: Record<string, string>;
let a = 0;
let b = 0;
const B_HOST = 'gpu.qingsong.example';
const ids: Record<string, number> = {};
const users: Record<'a' | 'b', { id: number; phone: string }> = {
  a: { id: 0, phone: '' },
  b: { id: 0, phone: '' },
};

const { call, createQingsong } = tenantsAdminCalls(
  () => t,
  () => platform,
);
const as = (
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) => t.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
const ok = async (res: Awaited<ReturnType<typeof as>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const enquire = async (host: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/contact/inquiry',
      headers: { 'x-tenant-host': host },
      payload: { name: '张三', phone: '13800000000', product: 'GPU裸金属服务器', quantity: 2 },
    })
  ).json().data.id as number;
const window = { startTime: '2026-01-01T00:00:00Z', endTime: '2027-12-31T00:00:00Z' };
const voucherBody = { name: '平台券', faceAmount: 10, validDays: 30 };

beforeAll(async () => {
  t = await createTestApp();
  platform = await t.adminHeaders('platform-admin');
  a = (await t.app.deps.modules.tenants.service.resolve('localhost')).id;
  b = await createQingsong();
  opsA = await t.adminHeaders('ops-a', { role: 'OPERATIONS', tenantId: a });
  roA = await t.adminHeaders('ro-a', { role: 'READONLY', tenantId: a });
  users.a = (await t.createUser()).user;
  users.b = (await t.createUser({ host: B_HOST })).user;
  ids.enquiryA = await enquire('localhost');
  ids.enquiryB = await enquire(B_HOST);
  const created = async (url: string, body: object) => (await ok(await call('POST', url, body))).id as number;
  ids.discountB = await created('/api/admin/discounts', {
    name: 'B八折',
    discountRate: 0.8,
    tenantId: b,
    ...window,
  });
  ids.discountAll = await created('/api/admin/discounts', { name: '全场九折', discountRate: 0.9, ...window });
  ids.configAll = await created('/api/admin/vouchers/configs', voucherBody);
  ids.distributionAll = await created('/api/admin/voucher-distribution/execute', {
    configId: ids.configAll,
    requestId: 'platform-distribution-1',
    target: { type: 'phones', phones: [users.b.phone] },
  });
  ids.sku = (await ok(await call('GET', `/api/admin/tenants/${b}/prices`)))[0].skuId;
  await ok(await call('PUT', `/api/admin/tenants/${b}/prices/${ids.sku}`, { hourlyPrice: 7.77 }));
});
afterAll(() => t.close());

describe('a tenant operator reads only its own tenant', () => {
  it('lists hold only tenant A rows, whatever tenant the filter names', async () => {
    for (const who of [opsA, roA]) {
      const enq = await ok(await as(who, 'GET', `/api/admin/enquiries?tenantId=${b}&size=100`));
      expect(enq.list.map((e: { id: number }) => e.id)).toEqual([ids.enquiryA]);
      expect(enq.total).toBe(1);
      expect((await ok(await as(who, 'GET', '/api/admin/discounts?size=100'))).total).toBe(0);
      expect((await ok(await as(who, 'GET', '/api/admin/vouchers/configs?size=100'))).total).toBe(0);
      expect((await ok(await as(who, 'GET', '/api/admin/voucher-distribution/history'))).total).toBe(0);
      const tenantList = await ok(await as(who, 'GET', '/api/admin/tenants'));
      expect(tenantList.map((x: { id: number }) => x.id)).toEqual([a]);
      const scopes = await ok(await as(who, 'GET', '/api/admin/promotions/scopes'));
      expect(scopes.tenants.map((x: { id: number }) => x.id)).toEqual([a]);
      expect(scopes.regions.length).toBeGreaterThan(0);
      expect((await ok(await as(who, 'GET', `/api/admin/tenants/${a}`))).id).toBe(a);
      expect((await ok(await as(who, 'GET', `/api/admin/tenants/${a}/prices`))).length).toBeGreaterThan(0);
    }
    // The platform administrator still sees both tenants' rows.
    const listed = async (url: string) =>
      (await ok(await call('GET', url))).list.map((x: { id: number }) => x.id);
    expect(await listed('/api/admin/enquiries?size=100')).toEqual(
      expect.arrayContaining([ids.enquiryA, ids.enquiryB]),
    );
    expect(await listed('/api/admin/discounts?size=100')).toEqual(
      expect.arrayContaining([ids.discountB, ids.discountAll]),
    );
    expect((await ok(await call('GET', '/api/admin/tenants'))).map((x: { id: number }) => x.id)).toEqual(
      expect.arrayContaining([a, b]),
    );
  });

  it('every read or write by id of tenant B (or of the platform) is 404 and changes nothing', async () => {
    const refusals: [string, string, unknown?][] = [
      ['POST', `/api/admin/enquiries/${ids.enquiryB}/handled`, { note: 'x' }],
      ['PUT', `/api/admin/discounts/${ids.discountB}`, { name: '改', discountRate: 0.5, ...window }],
      ['PUT', `/api/admin/discounts/${ids.discountAll}/status`, { enabled: false }],
      ['DELETE', `/api/admin/discounts/${ids.discountB}`],
      ['DELETE', `/api/admin/discounts/${ids.discountAll}`],
      ['PUT', `/api/admin/vouchers/configs/${ids.configAll}`, { ...voucherBody, name: '改' }],
      ['PATCH', `/api/admin/vouchers/configs/${ids.configAll}/toggle`],
      ['DELETE', `/api/admin/vouchers/configs/${ids.configAll}?archive=true`],
      [
        'POST',
        '/api/admin/voucher-distribution/preview',
        { configId: ids.configAll, target: { type: 'tenant', tenantId: a } },
      ],
      [
        'POST',
        '/api/admin/voucher-distribution/execute',
        {
          configId: ids.configAll,
          requestId: 'platform-distribution-1',
          target: { type: 'tenant', tenantId: a },
        },
      ],
      ['GET', `/api/admin/voucher-distribution/detail/${ids.distributionAll}`],
      ['GET', `/api/admin/tenants/${b}`],
      ['PUT', `/api/admin/tenants/${b}`, { name: '被改了', config: settings() }],
      ['GET', `/api/admin/tenants/${b}/prices`],
      ['PUT', `/api/admin/tenants/${b}/prices/${ids.sku}`, { hourlyPrice: 0.01 }],
      ['DELETE', `/api/admin/tenants/${b}/prices/${ids.sku}`],
    ];
    const snapshot = async () => ({
      enquiries: await t.db.select().from(enquiries),
      discounts: await t.db.select().from(discounts),
      configs: await t.db.select().from(voucherConfigs),
      vouchers: await t.db.select().from(vouchers),
      tenants: await t.db.select().from(tenants),
      prices: await t.db.select().from(tenantSkuPrices),
    });
    const before = await snapshot();
    for (const [method, url, body] of refusals) {
      const res = await as(opsA, method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
    expect(before.enquiries.find((e) => e.id === ids.enquiryB)?.status).toBe('NEW');
    // Only the platform's distribution issued a voucher: to B's user.
    expect(before.vouchers.map((v) => v.userId)).toEqual([users.b.id]);
    expect(before.prices.map((p) => [p.tenantId, p.hourlyPrice])).toEqual([[b, 77_700]]);
  });
});

describe('a tenant operator writes into its own tenant only', () => {
  it('OPERATIONS: creates are forced into tenant A; distributions reach only A users', async () => {
    await ok(await as(opsA, 'POST', `/api/admin/enquiries/${ids.enquiryA}/handled`, { note: '已回电' }));
    const d = await ok(
      await as(opsA, 'POST', '/api/admin/discounts', {
        name: 'A七折',
        discountRate: 0.7,
        tenantId: b,
        ...window,
      }),
    );
    expect(d.tenantId).toBe(a);
    const moved = await ok(
      await as(opsA, 'PUT', `/api/admin/discounts/${d.id}`, { name: 'A七折', discountRate: 0.7, ...window }),
    );
    expect(moved.tenantId).toBe(a);
    expect(
      (await ok(await as(opsA, 'GET', '/api/admin/discounts'))).list.map((x: { id: number }) => x.id),
    ).toEqual([d.id]);

    const cfg = await ok(
      await as(opsA, 'POST', '/api/admin/vouchers/configs', { ...voucherBody, name: 'A券' }),
    );
    const [row] = await t.db.select().from(voucherConfigs).where(eq(voucherConfigs.id, cfg.id));
    expect(row?.tenantId).toBe(a);
    expect(
      (await ok(await as(opsA, 'GET', '/api/admin/vouchers/configs'))).list.map((x: { id: number }) => x.id),
    ).toEqual([cfg.id]);

    // A tenant target naming B, and a phone of B: overridden to A, and B's phone is "not registered".
    const preview = await ok(
      await as(opsA, 'POST', '/api/admin/voucher-distribution/preview', {
        configId: cfg.id,
        target: { type: 'tenant', tenantId: b },
      }),
    );
    expect(preview.sample.map((u: { userId: number }) => u.userId)).toContain(users.a.id);
    expect(preview.sample.map((u: { userId: number }) => u.userId)).not.toContain(users.b.id);
    const run = await ok(
      await as(opsA, 'POST', '/api/admin/voucher-distribution/execute', {
        configId: cfg.id,
        requestId: 'operator-a-distribution',
        target: { type: 'phones', phones: [users.a.phone, users.b.phone] },
      }),
    );
    expect(run.issuedCount).toBe(1);
    expect(run.skipped).toEqual([{ phone: users.b.phone, reason: 'not_registered' }]);
    const issued = await t.db.select().from(vouchers).where(eq(vouchers.configId, cfg.id));
    expect(issued.map((v) => v.userId)).toEqual([users.a.id]);
    const history = await ok(await as(opsA, 'GET', '/api/admin/voucher-distribution/history'));
    expect(history.list.map((x: { id: number }) => x.id)).toEqual([run.id]);
    expect(
      (await ok(await as(opsA, 'GET', `/api/admin/voucher-distribution/detail/${run.id}`))).items,
    ).toHaveLength(1);

    const price = await ok(
      await as(opsA, 'PUT', `/api/admin/tenants/${a}/prices/${ids.sku}`, { hourlyPrice: 5.55 }),
    );
    expect(price.hourlyPrice).toBe(5.55);
    await ok(await as(opsA, 'DELETE', `/api/admin/tenants/${a}/prices/${ids.sku}`));
  });

  it('OPERATIONS changes its branding, not the code, status or domains; visible regions stay', async () => {
    const before = await ok(await call('GET', `/api/admin/tenants/${a}`));
    const branded = await ok(
      await as(opsA, 'PUT', `/api/admin/tenants/${a}`, {
        name: 'A 算力',
        code: before.code,
        status: before.status,
        domains: before.domains,
        config: settings({ visibleRegionResources: [999] }),
      }),
    );
    expect(branded.name).toBe('A 算力');
    expect((branded.config as { theme: { primaryColor: string } }).theme.primaryColor).toBe('#0a8f6c');
    expect(branded.config.visibleRegionResources).toEqual(before.config.visibleRegionResources ?? []);
    for (const change of [{ code: 'renamed' }, { status: 'DISABLED' }, { domains: ['a.example.com'] }]) {
      const res = await as(opsA, 'PUT', `/api/admin/tenants/${a}`, change);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toContain('租户运营');
    }
    const [row] = await t.db.select().from(tenants).where(eq(tenants.id, a));
    expect(row).toMatchObject({ code: before.code, status: 'ACTIVE' });
    expect(await t.db.select().from(tenantDomains).where(eq(tenantDomains.tenantId, a))).toHaveLength(
      before.domains.length,
    );
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await ok(await as(opsA, 'POST', '/api/admin/uploads', { dataUrl: `data:image/png;base64,${png}` }));
  });

  it('READONLY is refused every write on its own rows (403) and they stay as they were', async () => {
    const own = (await ok(await as(opsA, 'GET', '/api/admin/discounts'))).list[0];
    const writes: [string, string, unknown?][] = [
      ['POST', `/api/admin/enquiries/${ids.enquiryA}/handled`, { note: 'x' }],
      ['POST', '/api/admin/discounts', { name: 'x', discountRate: 0.5, ...window }],
      ['PUT', `/api/admin/discounts/${own.id}/status`, { enabled: false }],
      ['DELETE', `/api/admin/discounts/${own.id}`],
      ['POST', '/api/admin/vouchers/configs', voucherBody],
      [
        'POST',
        '/api/admin/voucher-distribution/execute',
        { configId: 1, requestId: 'ro-a-distribution', target: { type: 'tenant', tenantId: a } },
      ],
      ['PUT', `/api/admin/tenants/${a}`, { name: '只读改名' }],
      ['PUT', `/api/admin/tenants/${a}/prices/${ids.sku}`, { hourlyPrice: 1 }],
      ['POST', '/api/admin/uploads', { dataUrl: 'data:image/png;base64,AAAA' }],
    ];
    for (const [method, url, body] of writes) {
      const res = await as(roA, method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    expect((await ok(await as(roA, 'GET', '/api/admin/discounts'))).list[0]).toMatchObject({
      id: own.id,
      enabled: true,
    });
    expect((await ok(await as(roA, 'GET', `/api/admin/tenants/${a}`))).name).toBe('A 算力');
  });
});
