import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admins, users } from '../modules/auth/auth.tables.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { REFRESH_COOKIE } from '../modules/auth/refresh-cookie.ts';
import { login } from '../modules/auth/sessions.usecases.ts';
import { accounts } from '../modules/ledger/ledger.tables.ts';
import { createTestApp, midMinuteClock, testConfig } from '../test/test-app.ts';
import { buildServer } from './server.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;

// The sign-in half of the hostile-input suite (hardening.test.ts has the rest); each file starts its app.
describe('hostile input and sign-in', () => {
  let t: T;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMITS: 'on' }, clock: midMinuteClock() });
  });
  afterAll(() => t.close());

  const loginAs = (phone: string, password: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { phone, password },
      remoteAddress: ip,
      headers,
    });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy: per-IP limits hold', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      const phone = `1370000${String(i).padStart(4, '0')}`;
      codes.push(
        (await loginAs(phone, 'Whatever1', '198.51.100.1', { 'x-forwarded-for': `10.9.0.${i}` })).statusCode,
      );
    }
    expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
    expect(codes[20]).toBe(429);
  });

  it('locks an account for the failing address only; the owner signs in from elsewhere', async () => {
    const phone = '13911112222';
    const [u] = await t.db
      .insert(users)
      .values({ tenantId: 1, phone, username: phone, passwordHash: await hashPassword('Right1234') })
      .returning();
    await t.db.insert(accounts).values({ userId: u?.id as number, tenantId: 1 });
    for (let i = 0; i < 5; i++)
      expect((await loginAs(phone, 'Wrong1234', '203.0.113.50')).statusCode).toBe(401);
    const locked = await loginAs(phone, 'Right1234', '203.0.113.50');
    expect(locked.statusCode).toBe(429);
    expect((await loginAs(phone, 'Right1234', '203.0.113.51')).statusCode).toBe(200);
  });

  it('an admin cannot be locked out by strangers', async () => {
    await t.db
      .insert(admins)
      .values({ username: 'root2', passwordHash: await hashPassword('Admin12345'), role: 'SUPER' });
    const adminLogin = (password: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { username: 'root2', password },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i++) expect((await adminLogin('nope-nope', '192.0.2.66')).statusCode).toBe(401);
    expect((await adminLogin('Admin12345', '192.0.2.66')).statusCode).toBe(429);
    expect((await adminLogin('Admin12345', '192.0.2.67')).statusCode).toBe(200);
  });

  it('failures from many addresses slow the account down, never lock it', async () => {
    const phone = '13911113333';
    const [u] = await t.db
      .insert(users)
      .values({ tenantId: 1, phone, username: phone, passwordHash: await hashPassword('Right1234') })
      .returning();
    await t.db.insert(accounts).values({ userId: u?.id as number, tenantId: 1 });
    const waits: number[] = [];
    const deps = {
      db: t.db,
      tokens: t.app.deps.modules.auth.tokens,
      sms: t.app.deps.modules.sms.driver,
      now: () => new Date(),
      secret: 'x',
      delay: async (ms: number) => {
        waits.push(ms);
      },
    };
    const attempt = (password: string, ip: string) =>
      login(deps, 1, { phone, password, rememberMe: false }, ip).then(
        () => 'ok',
        (e: { status: number }) => e.status,
      );
    for (let i = 0; i < 12; i++) expect(await attempt('Wrong1234', `198.18.0.${i}`)).toBe(401);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.at(-1)).toBeGreaterThan(waits[0] as number);
    expect(await attempt('Right1234', '198.18.1.1')).toBe('ok');
  });

  it('logout and refresh-token reuse end the access token at once', async () => {
    const phone = '13911114444';
    const [u] = await t.db
      .insert(users)
      .values({ tenantId: 1, phone, username: phone, passwordHash: await hashPassword('Right1234') })
      .returning();
    await t.db.insert(accounts).values({ userId: u?.id as number, tenantId: 1 });
    const me = (token: string) =>
      t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    const signIn = async () => {
      const res = await loginAs(phone, 'Right1234', '198.19.0.1');
      const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value as string;
      return { token: res.json().data.accessToken as string, cookie };
    };
    const a = await signIn();
    expect((await me(a.token)).statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `${REFRESH_COOKIE}=${a.cookie}` },
    });
    expect((await me(a.token)).statusCode).toBe(401);

    const b = await signIn();
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `${REFRESH_COOKIE}=${b.cookie}` },
    });
    const newToken = refreshed.json().data.accessToken as string;
    expect((await me(newToken)).statusCode).toBe(200);
    // The spent refresh token again: theft; the whole family and its session end.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `${REFRESH_COOKIE}=${b.cookie}` },
    });
    expect((await me(b.token)).statusCode).toBe(401);
    expect((await me(newToken)).statusCode).toBe(401);
  });

  it('admin logout ends that session only', async () => {
    await t.db
      .insert(admins)
      .values({ username: 'root3', passwordHash: await hashPassword('Admin12345'), role: 'SUPER' });
    const signIn = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/auth/login',
          payload: { username: 'root3', password: 'Admin12345' },
          remoteAddress: '192.0.2.99',
        })
      ).json().data.token as string;
    const [one, two] = [await signIn(), await signIn()];
    const me = (token: string) =>
      t.app.inject({ url: '/api/admin/auth/me', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/logout',
      headers: { authorization: `Bearer ${one}` },
    });
    expect((await me(one)).statusCode).toBe(401);
    expect((await me(two)).statusCode).toBe(200);
  });
});

describe('rate limits across replicas', () => {
  it('two app instances on one database share the per-IP limit, under concurrent requests', async () => {
    const clock = midMinuteClock();
    const t = await createTestApp({ demo: false, config: { RATE_LIMITS: 'on' }, clock });
    const second = await buildServer({
      config: testConfig({ RATE_LIMITS: 'on' }),
      database: t.database,
      webDist: '/nonexistent',
      clock,
    });
    try {
      const apps = [t.app, second];
      // 30 sign-ins from one address at once, spread over both replicas: the limit is 20 a minute.
      const logins = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (apps[i % 2] as typeof t.app).inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { phone: `1360000${String(i).padStart(4, '0')}`, password: 'Whatever1' },
            remoteAddress: '198.51.100.78',
          }),
        ),
      );
      const codes = logins.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 429)).toHaveLength(10);
      expect(codes.filter((c) => c === 401)).toHaveLength(20);
    } finally {
      await second.close();
      await t.close();
    }
  });
});
