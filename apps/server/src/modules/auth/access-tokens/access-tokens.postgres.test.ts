import { ACCESS_TOKEN_RATE_PER_MINUTE, ACCESS_TOKENS_PER_USER } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { openDatabase } from '../../../platform/db/client.ts';
import { buildServer, createTestApp, testConfig } from '../../../test/test-app.ts';
import { accessTokens } from './access-tokens.tables.ts';

/**
 * Two servers (own pools) on one PostgreSQL database: what a token may do is decided by the
 * database at each request, so a revoke on one replica holds on the other at once, the limit of
 * tokens holds under racing creates, and the per-minute budget is one across replicas.
 */
const clock = fixedClock('2026-11-22T08:00:05Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
let second: Awaited<ReturnType<typeof buildServer>>;
let closeSecond: () => Promise<void>;

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({
  authorization: `Bearer ${token}`,
  'x-tenant-host': 'localhost',
});

describe.runIf(Boolean(process.env.DATABASE_URL))('access tokens on two replicas', () => {
  beforeAll(async () => {
    t = await createTestApp({ demo: false, clock });
    const current = (await t.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${current.rows[0]?.name}`;
    const database = await openDatabase({ url: url.toString() });
    second = await buildServer({ config: testConfig(), database, clock, webDist: '/nonexistent' });
    closeSecond = async () => {
      await second.close();
      await database.close();
    };
  });
  afterAll(async () => {
    await closeSecond();
    await t.close();
  });

  const issue = async (session: Headers, name = 'ci') =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/access-tokens',
      headers: session,
      payload: { name, scopes: ['read'], expiresInDays: 7 },
    });

  it('a token revoked on one replica is refused by the other at its next request', async () => {
    const u = await t.createUser();
    const made = (await issue(u.headers)).json().data as { id: number; token: string };
    const onB = () => second.inject({ url: '/api/user/balance', headers: bearer(made.token) });
    expect((await onB()).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/access-tokens/${made.id}`,
      headers: u.headers,
    });
    expect(revoke.statusCode).toBe(200);
    expect((await onB()).statusCode).toBe(401);
  });

  it(`racing creates on both replicas stop at ${ACCESS_TOKENS_PER_USER} tokens`, async () => {
    const u = await t.createUser();
    const held = ACCESS_TOKENS_PER_USER - 5;
    await t.db.insert(accessTokens).values(
      Array.from({ length: held }, (_, i) => ({
        userId: u.user.id,
        name: `held-${i}`,
        tokenHash: `held-${u.user.id}-${i}`,
        prefix: 'gpu_held',
        scopes: ['read'],
        expiresAt: new Date(clock.now().getTime() + 86_400_000),
      })),
    );
    // Ten at once (the route's budget per customer and minute), five of them over the limit.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? second : t.app).inject({
          method: 'POST',
          url: '/api/user/access-tokens',
          headers: u.headers,
          payload: { name: `race-${i}`, scopes: ['read'], expiresInDays: 7 },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([...Array(5).fill(200), ...Array(5).fill(409)]);
    const list = await t.app.inject({ url: '/api/user/access-tokens', headers: u.headers });
    expect(list.json().data).toHaveLength(ACCESS_TOKENS_PER_USER);
  });

  it('one per-minute budget per token across replicas, then 429 with Retry-After; others unaffected', async () => {
    const u = await t.createUser();
    const a = (await issue(u.headers, 'a')).json().data.token as string;
    const b = (await issue(u.headers, 'b')).json().data.token as string;
    const answers = await Promise.all(
      Array.from({ length: ACCESS_TOKEN_RATE_PER_MINUTE + 10 }, (_, i) =>
        (i % 2 ? second : t.app).inject({ url: '/api/user/balance', headers: bearer(a) }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(ACCESS_TOKEN_RATE_PER_MINUTE);
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(10);
    expect(limited[0]?.json().errorCode).toBe('common.rate_limited');
    expect(Number(limited[0]?.headers['retry-after'])).toBe(55);
    expect((await second.inject({ url: '/api/user/balance', headers: bearer(b) })).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await t.app.inject({ url: '/api/user/balance', headers: bearer(a) })).statusCode).toBe(200);
  });
});
