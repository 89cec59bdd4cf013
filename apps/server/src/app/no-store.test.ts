import {
  envelopeSchema,
  instanceSchema,
  loginResponseSchema,
  marketItemSchema,
  userSchema,
} from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { admins, users } from '../modules/auth/auth.tables.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { REFRESH_COOKIE } from '../modules/auth/refresh-cookie.ts';
import { answersSecrets, noStoreRoutes } from '../platform/http/no-store.ts';
import { createTestApp } from '../test/test-app.ts';

// DESIGN §9: answers carrying tokens or passwords are `Cache-Control: no-store`.

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (
  method: string,
  url: string,
  opts: { payload?: object; headers?: Record<string, string> } = {},
) =>
  t.app.inject({
    method: method as 'GET',
    url,
    payload: opts.payload,
    headers: { 'x-tenant-host': 'localhost', ...opts.headers },
  });

/** Every route that answers a token, a password, a code or SSH details. */
const SECRET_ROUTES = [
  'POST /api/auth/login',
  'POST /api/auth/phone-login',
  'POST /api/auth/register',
  'POST /api/auth/phone-register',
  'POST /api/auth/refresh',
  'POST /api/auth/change-password',
  'POST /api/user/change-phone',
  'POST /api/auth/send-verification-code',
  'POST /api/auth/send-reset-password-code',
  'POST /api/admin/auth/login',
  'POST /api/gpu/instance/create',
  'POST /api/v2/billing/instances/create',
  'GET /api/gpu/instances',
  'POST /api/gpu/instance/power_on',
  'GET /api/gpu/instance/check-ssh',
  'GET /api/gpu/vastai/instances',
  'POST /api/gpu/vastai/instance/create',
  'GET /api/gpu/vastai/instance/:id/ssh-info',
];

describe('Cache-Control: no-store', () => {
  it('finds secrets in a response schema by property name', () => {
    expect(answersSecrets(envelopeSchema(loginResponseSchema))).toBe(true);
    expect(answersSecrets(envelopeSchema(z.object({ token: z.string() })))).toBe(true);
    expect(answersSecrets(envelopeSchema(z.array(instanceSchema)))).toBe(true);
    expect(answersSecrets(envelopeSchema(userSchema))).toBe(false);
    expect(answersSecrets(envelopeSchema(z.array(marketItemSchema)))).toBe(false);
  });

  it('covers every route that answers a secret', () => {
    const found = noStoreRoutes(t.app);
    expect(SECRET_ROUTES.filter((r) => !found.has(r))).toEqual([]);
  });

  it('is on every answer of those routes, success or error', async () => {
    const routes = [...noStoreRoutes(t.app)].filter((r) => !r.startsWith('HEAD '));
    expect(routes.length).toBeGreaterThanOrEqual(SECRET_ROUTES.length);
    for (const route of routes) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await inject(method, url.replace(/:\w+/g, '1'), method === 'GET' ? {} : { payload: {} });
      expect(res.headers['cache-control'], `${route} → ${res.statusCode}`).toBe('no-store');
    }
  });

  it('is on the successful sign-in, refresh, admin sign-in and instance list answers', async () => {
    const { user, headers } = await t.createUser();
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword('Passw0rdOK') })
      .where(eq(users.id, user.id));
    const login = await inject('POST', '/api/auth/login', {
      payload: { phone: user.phone, password: 'Passw0rdOK', rememberMe: false },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const rt = login.cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
    const refresh = await inject('POST', '/api/auth/refresh', {
      headers: { cookie: `${REFRESH_COOKIE}=${rt}` },
    });
    expect(refresh.statusCode, refresh.body).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');

    await t.db
      .insert(admins)
      .values({ username: 'nostore', passwordHash: await hashPassword('Admin12345'), role: 'SUPER' });
    const admin = await inject('POST', '/api/admin/auth/login', {
      payload: { username: 'nostore', password: 'Admin12345' },
    });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.headers['cache-control']).toBe('no-store');

    const list = await inject('GET', '/api/gpu/instances', { headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
  });

  it('leaves answers without secrets alone', async () => {
    const market = await inject('GET', '/api/gpu/market');
    expect(market.statusCode).toBe(200);
    expect(market.headers['cache-control']).toBeUndefined();
    expect(noStoreRoutes(t.app).has('GET /api/gpu/market')).toBe(false);
  });
});
