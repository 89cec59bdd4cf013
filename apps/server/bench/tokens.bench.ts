import { createHash, randomBytes } from 'node:crypto';
import { accessTokens } from '../src/modules/auth/access-tokens/access-tokens.tables.ts';
import { createTestApp } from '../src/test/test-app.ts';
import { type Figure, load } from './load.ts';

/** Enough tokens that none of them reaches its 300 a minute during the measured runs. */
const TOKENS = 400;

/**
 * A signed-in read (GET /api/user/balance) with a browser session (JWT and its session row) and
 * with personal access tokens (hash lookup, the per-token counter's upsert, last use at most once
 * a minute): what a token costs on every request.
 */
export async function benchTokens(): Promise<Figure[]> {
  const t = await createTestApp({ demo: false });
  const u = await t.createUser();
  const tokens = Array.from({ length: TOKENS }, () => `gpu_${randomBytes(32).toString('base64url')}`);
  await t.db.insert(accessTokens).values(
    tokens.map((token, i) => ({
      userId: u.user.id,
      name: `bench-${i}`,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      prefix: token.slice(0, 8),
      scopes: ['read'],
      expiresAt: new Date(Date.now() + 86_400_000),
    })),
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/api/user/balance`;
  const kind = t.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const host = { 'x-tenant-host': 'localhost' };
  const out: Figure[] = [
    {
      name: `GET /api/user/balance, browser session (${kind})`,
      ...(await load(url, { headers: u.headers })),
    },
    {
      name: `GET /api/user/balance, access tokens (${kind})`,
      ...(await load(url, {
        requests: tokens.map((token) => ({
          method: 'GET',
          headers: { ...host, authorization: `Bearer ${token}` },
        })),
      })),
    },
  ];
  await t.close();
  return out;
}
