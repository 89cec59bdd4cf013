import { randomBytes } from 'node:crypto';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_RATE_PER_MINUTE,
  ACCESS_TOKEN_SCOPES,
  ACCESS_TOKENS_PER_USER,
  type AccessToken,
  type AccessTokenCreate,
  type AccessTokenCreated,
  type AccessTokenScope,
  type RouteAccess,
} from '@gpu/shared';
import type { Now } from '../../../platform/clock.ts';
import type { Db } from '../../../platform/db/client.ts';
import { createError } from '../../../platform/errors.ts';
import type { AuthUser } from '../auth.types.ts';
import { countHit } from '../rate-limits.repository.ts';
import { sha256 } from '../refresh-rotation.ts';
import { accessTokenErrors } from './access-tokens.errors.ts';
import { type AccessTokenRow, createAccessTokensRepository } from './access-tokens.repository.ts';

export interface AccessTokensDeps {
  db: Db;
  now: Now;
}

/** Last use is written at most this often per token (and whenever the address changes). */
const TOUCH_EVERY_MS = 60_000;
const MINUTE_MS = 60_000;

const isScope = (s: string): s is AccessTokenScope => (ACCESS_TOKEN_SCOPES as readonly string[]).includes(s);

const toView = (r: AccessTokenRow): AccessToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes.filter(isScope),
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  lastUsedIp: r.lastUsedIp,
});

export async function listAccessTokens(deps: AccessTokensDeps, userId: number): Promise<AccessToken[]> {
  return (await createAccessTokensRepository(deps).list(userId)).map(toView);
}

/**
 * A new token: 32 random bytes, answered once and kept only as its SHA-256. Under the owner's row
 * lock the limit sees every earlier create.
 */
export async function createAccessToken(
  deps: AccessTokensDeps,
  userId: number,
  input: AccessTokenCreate,
): Promise<AccessTokenCreated> {
  const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const repo = createAccessTokensRepository({ db: tx });
    await repo.lockOwner(userId);
    if ((await repo.countLive(userId, now)) >= ACCESS_TOKENS_PER_USER) throw accessTokenErrors.limit();
    return repo.insert({
      userId,
      name: input.name,
      tokenHash: sha256(token),
      prefix: token.slice(0, ACCESS_TOKEN_PREFIX.length + 4),
      // Stored in the order of ACCESS_TOKEN_SCOPES, whatever order they came in.
      scopes: ACCESS_TOKEN_SCOPES.filter((s) => input.scopes.includes(s)),
      expiresAt: new Date(now.getTime() + input.expiresInDays * 86_400_000),
      createdAt: now,
    });
  });
  return { ...toView(row), token };
}

export async function revokeAccessToken(deps: AccessTokensDeps, userId: number, id: number): Promise<void> {
  if (!(await createAccessTokensRepository(deps).delete(id, userId))) throw accessTokenErrors.notFound();
}

/** What a token request asks for: where it came from and what the route needs. */
export interface TokenRequest {
  token: string;
  ip: string;
  tenantId: number;
  access: RouteAccess;
}

/**
 * The user a personal access token speaks for on this route, or an error: 401 when the token is
 * unknown, revoked, expired, of another tenant or its owner disabled; 403 when the route is for
 * browser sessions only or needs a scope the token lacks; 429 over the token's per-minute limit
 * (counted in the database, so across replicas). Read on every request, never cached: a revoke
 * holds at the next request everywhere.
 */
export async function authenticateAccessToken(deps: AccessTokensDeps, req: TokenRequest): Promise<AuthUser> {
  const repo = createAccessTokensRepository(deps);
  const now = deps.now();
  const found = await repo.findByHash(sha256(req.token));
  if (
    !found ||
    found.expiresAt.getTime() <= now.getTime() ||
    found.userStatus !== 'ACTIVE' ||
    found.tenantId !== req.tenantId
  )
    throw accessTokenErrors.invalid();
  const scopes = found.scopes.filter(isScope);
  if (req.access === 'session') throw accessTokenErrors.notAllowed();
  // Every scope reads; writing needs the route's own scope.
  if (req.access !== 'read' && !scopes.includes(req.access)) throw accessTokenErrors.scope(req.access);
  const hit = await countHit(deps.db, `access-token:${found.id}`, MINUTE_MS, now.getTime());
  if (hit.current > ACCESS_TOKEN_RATE_PER_MINUTE) {
    const seconds = Math.max(1, Math.ceil(hit.ttl / 1000));
    throw createError({
      code: 'common.rate_limited',
      status: 429,
      message: `请求过于频繁，请${seconds}秒后再试`,
      details: { retryAfterS: seconds },
    });
  }
  const stale = !found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= TOUCH_EVERY_MS;
  if (stale || found.lastUsedIp !== req.ip) await repo.touch(found.id, now, req.ip);
  return {
    id: found.userId,
    tenantId: found.tenantId,
    sessionId: '',
    accessToken: { id: found.id, scopes },
  };
}
