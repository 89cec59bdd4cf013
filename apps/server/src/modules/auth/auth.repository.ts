import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import type { AuthAdmin, AuthUser } from '../../app/plugins/auth.ts';
import { admins, users } from './auth.tables.ts';

export function createAuthRepository({ db }: { db: DbOrTx }) {
  return {
    /** The user if active and the token (issued at `issuedAtS`) is not older than a revocation. */
    async findActiveUser(id: number, issuedAtS: number): Promise<AuthUser | null> {
      const [u] = await db
        .select({ id: users.id, tenantId: users.tenantId, tva: users.tokensValidAfter })
        .from(users)
        .where(and(eq(users.id, id), eq(users.status, 'ACTIVE')))
        .limit(1);
      if (!u || issuedAtS < Math.floor(u.tva.getTime() / 1000)) return null;
      return { id: u.id, tenantId: u.tenantId };
    },
    async findActiveAdmin(id: number, issuedAtS: number): Promise<AuthAdmin | null> {
      const [a] = await db
        .select({
          id: admins.id,
          username: admins.username,
          roles: admins.roles,
          tva: admins.tokensValidAfter,
        })
        .from(admins)
        .where(and(eq(admins.id, id), eq(admins.status, 'ACTIVE')))
        .limit(1);
      if (!a || issuedAtS < Math.floor(a.tva.getTime() / 1000)) return null;
      return { id: a.id, username: a.username, roles: a.roles };
    },
  };
}
