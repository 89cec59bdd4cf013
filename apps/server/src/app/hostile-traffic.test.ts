import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuSkus } from '../modules/hosts/catalog.tables.ts';
import { accounts } from '../modules/ledger/ledger.tables.ts';
import { postLedgerEntry, reconcileAccount } from '../modules/ledger/ledger.ts';
import { createTestApp } from '../test/test-app.ts';
import { hostileRequests, type Method, type Operation } from './hostile-requests.test-helpers.ts';

/**
 * Hostile traffic must not corrupt the process for the requests after it (issue 26). Generated
 * requests (fast-check, from the OpenAPI document: schema-shaped bodies and queries with fields
 * spoiled by wrong types, nulls, huge and negative numbers, NUL bytes, `__proto__` keys, 1 MB
 * strings) go to every operation as a stranger, a customer and an administrator, ten at a time;
 * then, on the same process, an honest customer's requests must behave exactly as on a fresh one:
 * a create takes the GPUs asked and two ports, a quote prices as before, caches answer what the
 * database holds, and every balance still equals its ledger. Between the two, every scheduled task
 * runs once, as in a server that has been up a while. Admin statistics are reused as in
 * production (ADMIN_STATS_CACHE_S=30). Seed: FUZZ_SEED (fixed by default).
 */

type T = Awaited<ReturnType<typeof createTestApp>>;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
/** Requests per operation and role: about 4,900 in all. */
const PER_OPERATION = 10;
const IMAGE = 'registry.gpu.local/fuzz-check:1.0';

let t: T;
beforeAll(async () => {
  // Statistics reuse on, as in production (tests turn it off elsewhere): hostile queries reach
  // the aggregate caches' keys too.
  t = await createTestApp({ config: { ADMIN_STATS_CACHE_S: '30' } });
});
afterAll(() => t.close());

const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** What the process's own module state looks like from outside: prototypes and frozen shapes. */
const processShape = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  string: Object.getOwnPropertyNames(String.prototype).sort(),
  pollutedProbe: ({} as Record<string, unknown>).polluted ?? null,
});

/**
 * A world of its own, made through the admin API as an operator would (a region, an image, a
 * simulated host with 4 GPUs and a 40-port pool, a tenant that shows the region), then what an
 * honest customer of it sees and gets. Discounts are removed first: the admin fuzz may add some.
 */
async function honestCustomer(tag: string) {
  const admin = await t.adminHeaders(`check-${tag}`);
  const ok = async (method: Method, url: string, payload?: unknown) => {
    const res = await call(method, url, admin, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return res.json().data;
  };
  for (const d of (await ok('GET', '/api/admin/discounts?page=1&size=100')).list as { id: number }[]) {
    await ok('DELETE', `/api/admin/discounts/${d.id}`);
  }
  const region = await ok('POST', '/api/admin/regions', { name: `校验区${tag}`, code: `check-${tag}` });
  await ok('POST', '/api/admin/images', {
    imageName: `校验镜像${tag}`,
    imageUrl: `${IMAGE}-${tag}`,
    frameworkType: 'pytorch',
  });
  const host = await ok('POST', '/api/admin/hosts', {
    name: `check-${tag}`,
    regionId: region.id,
    driver: 'simulated',
    cpuModel: 'AMD EPYC 9654',
    cpuCores: 64,
    memoryGb: 512,
    portRangeStart: 41_000,
    portRangeEnd: 41_039,
    settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 4090', memoryGb: 24, count: 4 } },
    sku: { hourlyPrice: 2.35, cpuPerGpu: 16, memoryPerGpuGb: 64 },
  });
  await ok('POST', `/api/admin/hosts/${host.id}/test-connection`);
  const pool = await ok('POST', `/api/admin/hosts/${host.id}/init-ports`);
  const domain = `check-${tag}.example.com`;
  await ok('POST', '/api/admin/tenants', {
    code: `check-${tag}`,
    name: `校验租户${tag}`,
    domains: [domain],
    config: {
      theme: {
        primaryColor: '#0a8f6c',
        secondaryColor: '#13c2c2',
        backgroundColor: '#f5fffb',
        gradientStart: '#0a8f6c',
        gradientEnd: '#13c2c2',
      },
      homepage: { title: '校验', titleColor: '#ffffff', subtitleColor: '#e6fffb' },
      contact: {},
      footer: {},
      visibleRegionResources: [region.id],
    },
  });
  const [sku] = await t.db
    .select({ id: gpuSkus.id })
    .from(gpuSkus)
    .where(sql`${gpuSkus.hostId} = ${host.id}`);
  const customer = await t.createUser({ host: domain });
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      userId: customer.user.id,
      kind: 'recharge',
      amount: 2_000_000,
      idempotencyKey: `fuzz-check:${tag}`,
    }),
  );
  const headers = customer.headers;
  const quote = async (billingType: string, duration: number, gpuAmount: number) => {
    const res = await call('POST', '/api/v2/package-billing/calculate-price', headers, {
      machineId: sku?.id,
      billingType,
      duration,
      gpuAmount,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const quotes = [await quote('hourly', 1, 1), await quote('daily', 3, 2), await quote('monthly', 1, 1)];

  const create = async (name: string, gpuAmount: number) => {
    const res = await call('POST', '/api/gpu/instance/create', headers, {
      machineId: sku?.id,
      gpuAmount,
      billingType: 'hourly',
      instanceName: name,
      image: `${IMAGE}-${tag}`,
    });
    await t.app.deps.modules.instances.jobs.drain();
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; gpuCount: number };
  };
  const hostNow = async () => ok('GET', `/api/admin/hosts/${host.id}`);
  const first = await create('check-a', 1);
  const afterFirst = await hostNow();
  const second = await create('check-b', 2);
  const afterSecond = await hostNow();
  const list = (await call('GET', '/api/gpu/instances?size=10', headers)).json().data.list as Array<{
    id: number;
    status: string;
    gpuCount: number;
    sshPort: number | null;
    jupyterPort: number | null;
  }>;

  // Caches: what they answer now must be what a fresh read of the database answers.
  const market = async () =>
    (await call('GET', '/api/gpu/market?size=48', { 'x-tenant-host': domain })).json().data;
  const tenantConfig = async () =>
    (await call('GET', '/api/tenant/config', { 'x-tenant-host': domain })).json().data;
  const cached = { market: await market(), tenant: await tenantConfig() };
  t.app.deps.modules.market.market.invalidate();
  t.app.deps.modules.tenants.service.invalidate();
  const fresh = { market: await market(), tenant: await tenantConfig() };

  return {
    pool: { total: pool.total, allocated: pool.allocated },
    quotes,
    firstGpus: first.gpuCount,
    secondGpus: second.gpuCount,
    allocatedPorts: [afterFirst.portAllocated, afterSecond.portAllocated],
    instances: list
      .map((i) => ({
        status: i.status,
        gpuCount: i.gpuCount,
        ports: [i.sshPort, i.jupyterPort].filter((p) => p !== null).length,
      }))
      .sort((a, b) => a.gpuCount - b.gpuCount),
    cachesMatchDatabase: { market: cached.market, tenant: cached.tenant },
    fresh,
  };
}

/** Every account's balance equals its ledger (DESIGN §5), whatever the traffic did to them. */
async function unbalancedAccounts() {
  const ids = await t.db.select({ userId: accounts.userId }).from(accounts);
  const bad: number[] = [];
  for (const { userId } of ids) if (!(await reconcileAccount(t.db, userId)).balanced) bad.push(userId);
  return bad;
}

describe('hostile traffic to every operation, then an honest customer on the same process', () => {
  it('answers no 5xx, and the next honest requests behave as on a fresh process', async () => {
    const shape = processShape();
    const before = await honestCustomer('before');
    // The expected world, spelled out: 1 + 2 GPUs, 2 ports each, both running.
    expect(before.pool).toEqual({ total: 40, allocated: 0 });
    expect(before.allocatedPorts).toEqual([2, 4]);
    expect(before.instances).toEqual([
      { status: 'RUNNING', gpuCount: 1, ports: 2 },
      { status: 'RUNNING', gpuCount: 2, ports: 2 },
    ]);

    const doc = (
      await t.app.inject({ url: '/api/admin/docs/json', headers: await t.adminHeaders() })
    ).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const customer = await t.createUser();
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: customer.user.id,
        kind: 'recharge',
        amount: 5_000_000,
        idempotencyKey: 'fuzz:seed',
      }),
    );
    // Fresh credentials for each operation: the traffic signs its own sessions out.
    const roles: Array<() => Promise<Record<string, string>>> = [
      async () => ({}),
      async () => ({
        authorization: `Bearer ${await t.userToken(customer.user)}`,
        'x-tenant-host': 'localhost',
      }),
      () => t.adminHeaders(),
    ];
    const problems: string[] = [];
    let sent = 0;
    let seed = SEED;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/docs')) continue;
      for (const [m, op] of Object.entries(ops)) {
        for (const role of roles) {
          const headers = await role();
          const batch = hostileRequests(path, m.toUpperCase() as Method, op, PER_OPERATION, seed++);
          await Promise.all(
            batch.map(async (r) => {
              sent++;
              const res = await t.app.inject({
                method: r.method,
                url: r.url,
                headers: r.contentType ? { ...headers, 'content-type': r.contentType } : headers,
                payload: r.payload,
              });
              if (res.statusCode >= 500) {
                problems.push(
                  `${r.method} ${r.url.slice(0, 120)} ${r.payload?.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 160)}`,
                );
              }
            }),
          );
        }
      }
    }
    await t.app.deps.modules.instances.jobs.drain();
    // A process that has run a while has also run its tasks, the embedded database's vacuum
    // among them (its ANALYZE changes how PostgreSQL plans every later statement); on PostgreSQL
    // autovacuum does the same.
    for (const name of t.app.tasks.names()) await t.app.tasks.runNow(name);
    if (t.database.kind === 'postgres') await t.db.execute(sql`analyze`);
    expect(Object.values(t.app.tasks.stats()).filter((s) => s.failures > 0)).toEqual([]);

    expect(problems, `seed ${SEED}:\n${problems.slice(0, 20).join('\n')}`).toEqual([]);
    expect(sent).toBeGreaterThan(4000);
    expect(processShape()).toEqual(shape);
    expect(await unbalancedAccounts()).toEqual([]);

    const after = await honestCustomer('after');
    expect(after.pool).toEqual(before.pool);
    expect(after.allocatedPorts).toEqual([2, 4]);
    expect(after.instances).toEqual(before.instances);
    expect(after.quotes).toEqual(before.quotes);
    expect(after.cachesMatchDatabase).toEqual(after.fresh);
  }, 600_000);
});
