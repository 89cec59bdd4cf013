import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { createTestApp } from '../../test/test-app.ts';
import { billingRecords } from '../instances/instances.tables.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { settings, type T, tenantsAdminCalls } from './tenant-admin.test-helpers.ts';

let t: T;
let admin: Record<string, string>;
let tenantId = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
  tenantId = await createQingsong();
});
afterAll(() => t.close());

const { call, lastAudit, market, createQingsong } = tenantsAdminCalls(
  () => t,
  () => admin,
);

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
