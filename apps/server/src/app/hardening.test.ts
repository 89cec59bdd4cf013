import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTE_PERMISSIONS, routeKey } from '../modules/admins/route-permissions.ts';
import { createTenantService } from '../modules/tenants/tenants.usecases.ts';
import type { Db } from '../platform/db/client.ts';
import { createTestApp, midMinuteClock } from '../test/test-app.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const envelope = { success: false, data: null };

describe('hostile input and sign-in', () => {
  let t: T;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMITS: 'on' }, clock: midMinuteClock() });
  });
  afterAll(() => t.close());

  it('refuses control characters in query, path and body with a 400 naming the field', async () => {
    const user = await t.createUser();
    const cases = [
      { url: '/api/tenant/config?tenant=a%00b', field: 'tenant' },
      { url: '/api/recharge/orders/ab%00c', headers: user.headers, field: 'id' },
      { url: '/api/gpu/market?keyword=x%01', field: 'keyword' },
      {
        url: '/api/admin/hosts',
        method: 'POST' as const,
        headers: await t.adminHeaders(),
        payload: { name: 'ok', settings: { 'k\u0000': 1 } },
        field: 'settings',
      },
      {
        url: '/api/pay/createQrCode',
        method: 'POST' as const,
        headers: user.headers,
        payload: { amount: 100, subject: 'a\u0000b' },
        field: 'subject',
      },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method ?? 'GET',
        url: c.url,
        headers: c.headers,
        payload: c.payload,
      });
      expect(res.statusCode, c.url).toBe(400);
      expect(res.json(), c.url).toMatchObject(envelope);
      expect(res.json().message, c.url).toContain(`参数 ${c.field} 无效`);
    }
  });

  it('ids are decimal; JSON amounts are numbers; dates are real', async () => {
    const user = await t.createUser();
    const admin = await t.adminHeaders();
    for (const url of ['/api/admin/hosts/0x10', '/api/admin/hosts/14e0', '/api/admin/hosts/99999999999']) {
      const res = await t.app.inject({ url, headers: admin });
      expect(res.statusCode, url).toBe(400);
    }
    const qr = await t.app.inject({
      method: 'POST',
      url: '/api/pay/createQrCode',
      headers: user.headers,
      payload: { amount: '1e2' },
    });
    expect(qr.statusCode).toBe(400);
    expect(qr.json().message).toContain('amount');
    for (const url of [
      '/api/recharge/orders?startDate=2026-13-45',
      '/api/recharge/orders?endDate=2026-02-30',
      '/api/v2/billing/records?from=2026-02-30',
    ]) {
      const res = await t.app.inject({ url, headers: user.headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject(envelope);
    }
  });

  it('answers over-long paths and URLs in the envelope (414, 431 without a reset)', async () => {
    const long = await t.app.inject({ url: `/api/recharge/orders/${'a'.repeat(5000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ ...envelope, code: '414', message: '请求地址过长' });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        path: `/api/gpu/market?keyword=${'a'.repeat(1_000_000)}`,
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ ...envelope, code: '431' });
  });

  it('authenticates before validating on every admin route: 401, never 400', async () => {
    const user = await t.createUser();
    const doc = (
      await t.app.inject({ url: '/api/admin/docs/json', headers: await t.adminHeaders() })
    ).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    let walked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/admin/')) continue;
      const url = path.replace(/\{[^}]+\}/g, 'x');
      for (const method of Object.keys(ops)) {
        // The sign-in steps take no token (the route table's `public`).
        if (ADMIN_ROUTE_PERMISSIONS[routeKey(method, path.replace(/\{([^}]+)\}/g, ':$1'))] === 'public')
          continue;
        for (const headers of [{}, user.headers]) {
          const res = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url: `${url}?page=abc`,
            headers,
            ...(method === 'get' || method === 'delete' ? {} : { payload: { wrong: ['shape'] } }),
          });
          expect([401, 403], `${method} ${path}`).toContain(res.statusCode);
          walked++;
        }
      }
    }
    expect(walked).toBeGreaterThan(20);
  });
});

describe('tenant cache', () => {
  it('answers unknown hosts from one snapshot without reading the database per host', async () => {
    const t = await createTestApp({ demo: false });
    try {
      let selects = 0;
      const counting = new Proxy(t.db, {
        get(target, prop, receiver) {
          if (prop === 'select') selects++;
          return Reflect.get(target, prop, receiver);
        },
      }) as Db;
      const tenants = createTenantService({ db: counting });
      const first = await tenants.resolve('localhost');
      const before = selects;
      for (let i = 0; i < 500; i++) expect((await tenants.resolve(`evil-${i}.example`)).id).toBe(first.id);
      expect(selects).toBe(before);
    } finally {
      await t.close();
    }
  });
});
