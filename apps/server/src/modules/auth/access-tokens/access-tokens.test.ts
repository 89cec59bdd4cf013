import { ACCESS_TOKEN_PATTERN, ACCESS_TOKENS_PER_USER } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { users } from '../auth.tables.ts';
import { accessTokens } from './access-tokens.tables.ts';

const clock = fixedClock('2026-11-22T08:00:30Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const inject = (method: string, url: string, headers: Headers, payload?: unknown) =>
  h.t.app.inject({ method: method as 'GET', url, headers, payload: payload as object });
const bearer = (token: string): Headers => ({
  authorization: `Bearer ${token}`,
  'x-tenant-host': 'localhost',
});

async function issue(session: Headers, scopes: string[], expiresInDays = 30) {
  const res = await inject('POST', '/api/user/access-tokens', session, { name: 'ci', scopes, expiresInDays });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number; token: string; prefix: string };
}
const createBody = async () => ({
  machineId: await h.idOf('nm-a-l40s-01'),
  instanceName: 'api',
  image: IMAGE,
  gpuAmount: 1,
  billingType: 'hourly',
});

describe('personal access tokens', () => {
  it('are shown once, kept hashed, and listed with their last use (time and address)', async () => {
    const u = await h.funded(10);
    const created = await issue(u.headers, ['read']);
    expect(created.token).toMatch(ACCESS_TOKEN_PATTERN);
    expect(created.prefix).toBe(created.token.slice(0, 8));
    const [row] = await h.t.db.select().from(accessTokens).where(eq(accessTokens.id, created.id));
    expect(row?.tokenHash).not.toContain(created.token.slice(4));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const balance = await h.t.app.inject({
      url: '/api/user/balance',
      headers: bearer(created.token),
      remoteAddress: '203.0.113.7',
    });
    expect(balance.statusCode).toBe(200);
    const list = (await inject('GET', '/api/user/access-tokens', u.headers)).json().data;
    expect(list).toEqual([
      expect.objectContaining({
        id: created.id,
        name: 'ci',
        scopes: ['read'],
        lastUsedAt: clock.now().toISOString(),
        lastUsedIp: '203.0.113.7',
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(created.token);
    // Events too: the message centre reads with any token (webhooks push the same notices).
    expect((await inject('GET', '/api/user/notifications', bearer(created.token))).statusCode).toBe(200);
  });

  it('a read token reads but cannot create or release; an instances token can', async () => {
    const u = await h.funded(100);
    const read = await issue(u.headers, ['read']);
    const full = await issue(u.headers, ['instances']);
    const before = await h.balance(u.user.id);
    const refused = await inject('POST', '/api/gpu/instance/create', bearer(read.token), await createBody());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errorCode: 'auth.token_scope' });
    expect(refused.json().message).toContain('实例管理');
    expect(await h.balance(u.user.id)).toBe(before);

    const made = await h.create(bearer(full.token), await createBody());
    expect(made.statusCode).toBe(200);
    const id = made.json().data.id as number;
    const listed = await inject('GET', '/api/gpu/instances', bearer(read.token));
    expect(listed.json().data.list.map((i: { id: number }) => i.id)).toContain(id);
    const release = await h.action(bearer(read.token), 'release', id);
    expect(release.statusCode).toBe(403);
    expect((await h.view(u.headers, id)).status).toBe('RUNNING');
    expect((await h.action(bearer(full.token), 'release', id)).statusCode).toBe(200);
    expect((await h.view(u.headers, id)).status).toBe('RELEASED');
  });

  it('never manage tokens, the password, the phone or sign-ins, and never open the back office', async () => {
    const u = await h.funded(0);
    const all = await issue(u.headers, ['read', 'instances', 'billing']);
    const b = bearer(all.token);
    for (const [method, url, body] of [
      ['GET', '/api/user/access-tokens'],
      ['POST', '/api/user/access-tokens', { name: 'x', scopes: ['read'], expiresInDays: 7 }],
      ['DELETE', `/api/user/access-tokens/${all.id}`],
      ['POST', '/api/auth/change-password', { oldPassword: 'a', newPassword: 'Abcdef12' }],
      ['POST', '/api/user/change-phone', { password: 'a', phone: '13900000000', code: '123456' }],
      ['GET', '/api/user/sign-ins'],
    ] as const) {
      const res = await inject(method, url, b, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().errorCode).toBe('auth.token_not_allowed');
    }
    const admin = await inject('GET', '/api/admin/user-management/users', b);
    expect(admin.statusCode).toBe(401);
    expect((await inject('GET', '/api/user/access-tokens', u.headers)).json().data).toHaveLength(1);
  });

  it('revoked, expired, disabled or of another tenant: 401 at the next request', async () => {
    const u = await h.funded(0);
    const a = await issue(u.headers, ['read'], 7);
    const b = await issue(u.headers, ['read'], 30);
    expect((await inject('GET', '/api/user/balance', bearer(a.token))).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/user/access-tokens/${a.id}`, u.headers)).statusCode).toBe(200);
    const revoked = await inject('GET', '/api/user/balance', bearer(a.token));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({
      errorCode: 'common.unauthorized',
      message: '访问令牌无效、已过期或已撤销',
    });
    expect((await inject('DELETE', `/api/user/access-tokens/${a.id}`, u.headers)).statusCode).toBe(404);

    const other = await h.t.createUser({ host: 'localhost' });
    expect((await inject('DELETE', `/api/user/access-tokens/${b.id}`, other.headers)).statusCode).toBe(404);
    expect(
      (await inject('GET', '/api/user/balance', { ...bearer(b.token), 'x-tenant-host': '127.0.0.1' }))
        .statusCode,
    ).toBe(401);
    await h.t.db.update(users).set({ status: 'DISABLED' }).where(eq(users.id, u.user.id));
    expect((await inject('GET', '/api/user/balance', bearer(b.token))).statusCode).toBe(401);
    await h.t.db.update(users).set({ status: 'ACTIVE' }).where(eq(users.id, u.user.id));
    expect((await inject('GET', '/api/user/balance', bearer(b.token))).statusCode).toBe(200);
    clock.advance(30 * 86_400_000);
    expect((await inject('GET', '/api/user/balance', bearer(b.token))).statusCode).toBe(401);
    expect((await inject('GET', '/api/user/balance', bearer(`gpu_${'x'.repeat(43)}`))).statusCode).toBe(401);
  });

  it('bad input is a 400 naming the field and makes nothing; beyond the limit a 409', async () => {
    const u = await h.funded(0);
    for (const [body, words] of [
      [{ name: '', scopes: ['read'], expiresInDays: 7 }, '请填写令牌名称'],
      [{ name: 'a', scopes: [], expiresInDays: 7 }, '请至少选择一项权限'],
      [{ name: 'a', scopes: ['admin'], expiresInDays: 7 }, '权限只能是'],
      [{ name: 'a', scopes: ['read', 'read'], expiresInDays: 7 }, '权限重复'],
      [{ name: 'a', scopes: ['read'], expiresInDays: 3650 }, '有效期只能是'],
      [{ name: 'a'.repeat(33), scopes: ['read'], expiresInDays: 7 }, '最多32个字符'],
    ] as const) {
      const res = await inject('POST', '/api/user/access-tokens', u.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(words);
    }
    expect((await inject('GET', '/api/user/access-tokens', u.headers)).json().data).toEqual([]);
    for (let i = 0; i < ACCESS_TOKENS_PER_USER; i++) {
      await h.t.db.insert(accessTokens).values({
        userId: u.user.id,
        name: `t${i}`,
        tokenHash: `hash-${u.user.id}-${i}`,
        prefix: 'gpu_test',
        scopes: ['read'],
        expiresAt: new Date(clock.now().getTime() + 86_400_000),
      });
    }
    const over = await inject('POST', '/api/user/access-tokens', u.headers, {
      name: 'one more',
      scopes: ['read'],
      expiresInDays: 7,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().errorCode).toBe('auth.token_limit');
  });
});

describe('long-polling one instance', () => {
  it('answers when the status is reached, at the timeout otherwise, always with the instance', async () => {
    const u = await h.funded(100);
    const made = await h.create(u.headers, await createBody());
    const id = made.json().data.id as number;
    const running = await inject('GET', `/api/gpu/instance/${id}?waitFor=RUNNING&timeout=5`, u.headers);
    expect(running.json().data).toMatchObject({ id, status: 'RUNNING' });
    const started = performance.now();
    const waited = await inject('GET', `/api/gpu/instance/${id}?waitFor=STOPPED&timeout=1`, u.headers);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(waited.json().data.status).toBe('RUNNING');

    const off = inject('GET', `/api/gpu/instance/${id}?waitFor=STOPPED&timeout=20`, u.headers);
    await h.action(u.headers, 'power_off', id);
    expect((await off).json().data.status).toBe('STOPPED');
    await h.action(u.headers, 'release', id);
    // Released: nothing follows, so a wait for RUNNING ends at once.
    const ended = await inject('GET', `/api/gpu/instance/${id}?waitFor=RUNNING&timeout=30`, u.headers);
    expect(ended.json().data.status).toBe('RELEASED');
  });

  it('bad waitFor or timeout is a 400 naming it; another user sees 404', async () => {
    const u = await h.funded(100);
    const id = (await h.create(u.headers, await createBody())).json().data.id as number;
    for (const [q, words] of [
      ['waitFor=UP', 'waitFor 只能是'],
      ['waitFor=RUNNING&timeout=61', 'timeout 最多60秒'],
      ['waitFor=RUNNING&timeout=0', 'timeout 最少1秒'],
      ['timeout=x', 'timeout'],
    ]) {
      const res = await inject('GET', `/api/gpu/instance/${id}?${q}`, u.headers);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toContain(words);
    }
    const other = await h.funded(0);
    expect((await inject('GET', `/api/gpu/instance/${id}`, other.headers)).statusCode).toBe(404);
    await h.action(u.headers, 'release', id);
  });
});

describe('Idempotency-Key on every customer write', () => {
  it('replays the first answer, refuses other input under the same key, counts path parameters', async () => {
    const u = await h.funded(0);
    const key = { ...u.headers, 'idempotency-key': 'ssh-key-add-0001' };
    const body = {
      name: 'laptop',
      publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop',
    };
    const first = await inject('POST', '/api/user/ssh-keys', key, body);
    expect(first.statusCode).toBe(200);
    const again = await inject('POST', '/api/user/ssh-keys', key, body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await inject('GET', '/api/user/ssh-keys', u.headers)).json().data).toHaveLength(1);
    const changed = await inject('POST', '/api/user/ssh-keys', key, { ...body, name: 'other' });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().errorCode).toBe('idempotency.body_mismatch');

    const del = { ...u.headers, 'idempotency-key': 'ssh-key-del-0001' };
    const id = first.json().data.id as number;
    expect((await inject('DELETE', `/api/user/ssh-keys/${id}`, del)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/user/ssh-keys/${id}`, del)).headers['idempotent-replayed']).toBe(
      'true',
    );
    expect((await inject('DELETE', `/api/user/ssh-keys/${id + 1}`, del)).statusCode).toBe(422);
    expect(
      (await inject('POST', '/api/user/ssh-keys', { ...u.headers, 'idempotency-key': 'x' }, body)).json(),
    ).toMatchObject({
      errorCode: 'idempotency.bad_key',
    });
  });
});

describe('hostile tokens', () => {
  it('any Authorization a stranger sends is a 401 and the next honest request still works', async () => {
    const u = await h.funded(0);
    const good = await issue(u.headers, ['read']);
    const tail = fc.string({ unit: 'binary', maxLength: 80 });
    const token = fc.oneof(
      tail.map((s) => `gpu_${s}`),
      fc.stringMatching(/^gpu_[A-Za-z0-9_-]{43}$/),
      fc.constantFrom('gpu_', `${good.token}x`, good.token.slice(0, -1), good.token.toUpperCase()),
    );
    await fc.assert(
      fc.asyncProperty(
        token,
        fc.constantFrom('GET /api/user/balance', 'POST /api/gpu/instance/release'),
        async (t, route) => {
          const [method, url] = route.split(' ') as [string, string];
          // Header values must be printable for Node; others never leave a client.
          const value = `Bearer ${t}`.replace(/[^\x20-\x7e]/g, '?');
          const res = await inject(method, url, { authorization: value, 'x-tenant-host': 'localhost' });
          expect(res.statusCode).toBe(401);
          expect(res.json().errorCode).toBe('common.unauthorized');
        },
      ),
      { numRuns: 150, seed: 32 },
    );
    expect((await inject('GET', '/api/user/balance', bearer(good.token))).statusCode).toBe(200);
  });
});
