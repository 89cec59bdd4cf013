import { createHash } from 'node:crypto';
import { authErrors } from './auth.errors.ts';

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** A stored refresh token, customer's or administrator's. */
export interface RefreshRow {
  id: number;
  family: string;
  usedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
}

/** Where one audience keeps its refresh tokens and sessions. */
export interface RefreshStore<R extends RefreshRow> {
  refreshTokenByHash(tokenHash: string): Promise<R | undefined>;
  /** Marks it used; false when someone used it first. */
  markRefreshUsed(id: number, at: Date): Promise<boolean>;
  /** Ends the family: its session and every token of it. */
  revokeFamily(family: string, at: Date): Promise<void>;
  sessionStartedAt(family: string): Promise<Date | undefined>;
}

/**
 * Spends a refresh token for one rotation (customers and administrators alike): a spent or
 * revoked token, or one presented twice at once, ends its whole family (theft detection); an
 * expired one, or a family older than `maxAgeMs`, is refused. Returns the row and when its session
 * began, for the next token of the family.
 */
export async function spendRefreshToken<R extends RefreshRow>(
  store: RefreshStore<R>,
  token: string | undefined,
  now: Date,
  maxAgeMs: number,
): Promise<{ row: R; startedAt: Date }> {
  if (!token) throw authErrors.refreshInvalid();
  const row = await store.refreshTokenByHash(sha256(token));
  if (!row || row.revokedAt) throw authErrors.refreshInvalid();
  if (row.usedAt || !(await store.markRefreshUsed(row.id, now))) {
    await store.revokeFamily(row.family, now);
    throw authErrors.refreshInvalid();
  }
  if (row.expiresAt.getTime() <= now.getTime()) throw authErrors.refreshInvalid();
  const startedAt = await store.sessionStartedAt(row.family);
  if (!startedAt || now.getTime() >= startedAt.getTime() + maxAgeMs) {
    await store.revokeFamily(row.family, now);
    throw authErrors.refreshInvalid();
  }
  return { row, startedAt };
}
