import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { preparedStatement } from '../../../platform/db/prepared.ts';
import { users } from '../auth.tables.ts';
import { accessTokens } from './access-tokens.tables.ts';

export type AccessTokenRow = typeof accessTokens.$inferSelect;

/** What every request with a token reads: the token and its owner, one index probe. */
const tokenLookup = preparedStatement('auth_access_token', (db) =>
  db
    .select({
      id: accessTokens.id,
      scopes: accessTokens.scopes,
      expiresAt: accessTokens.expiresAt,
      lastUsedAt: accessTokens.lastUsedAt,
      lastUsedIp: accessTokens.lastUsedIp,
      userId: users.id,
      tenantId: users.tenantId,
      userStatus: users.status,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.tokenHash, sql.placeholder('hash')))
    .limit(1),
);

export function createAccessTokensRepository({ db }: { db: DbOrTx }) {
  return {
    findByHash: async (hash: string) => (await tokenLookup(db, { hash }))[0] ?? null,
    /** Locks the owner's row, so two creates of one user count and check one after the other. */
    async lockOwner(userId: number) {
      await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },
    async countLive(userId: number, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(accessTokens)
        .where(and(eq(accessTokens.userId, userId), gt(accessTokens.expiresAt, now)));
      return row?.n ?? 0;
    },
    async insert(values: typeof accessTokens.$inferInsert): Promise<AccessTokenRow> {
      const [row] = await db.insert(accessTokens).values(values).returning();
      if (!row) throw new Error('access token insert returned nothing');
      return row;
    },
    list: (userId: number) =>
      db.select().from(accessTokens).where(eq(accessTokens.userId, userId)).orderBy(asc(accessTokens.id)),
    /** Whether a token of this user was there to delete. */
    async delete(id: number, userId: number): Promise<boolean> {
      const gone = await db
        .delete(accessTokens)
        .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId)))
        .returning({ id: accessTokens.id });
      return gone.length > 0;
    },
    async touch(id: number, at: Date, ip: string) {
      await db.update(accessTokens).set({ lastUsedAt: at, lastUsedIp: ip }).where(eq(accessTokens.id, id));
    },
  };
}
