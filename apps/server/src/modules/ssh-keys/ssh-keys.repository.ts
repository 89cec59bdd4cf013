import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/auth.tables.ts';
import { userSshKeys } from './ssh-keys.tables.ts';

export type SshKeyRow = typeof userSshKeys.$inferSelect;

export function createSshKeysRepository({ db }: { db: DbOrTx }) {
  const ofUser = (userId: number, tenantId: number) =>
    and(eq(userSshKeys.userId, userId), eq(userSshKeys.tenantId, tenantId));
  return {
    list: (userId: number, tenantId: number): Promise<SshKeyRow[]> =>
      db.select().from(userSshKeys).where(ofUser(userId, tenantId)).orderBy(asc(userSshKeys.id)),

    /** The authorized_keys lines of a user, oldest first (what an instance gets). */
    async lines(userId: number): Promise<string[]> {
      const rows = await db
        .select({ line: userSshKeys.publicKey })
        .from(userSshKeys)
        .where(eq(userSshKeys.userId, userId))
        .orderBy(asc(userSshKeys.id));
      return rows.map((r) => r.line);
    },

    /** Locks the owner's row, so two adds of one user count and check one after the other. */
    async lockOwner(userId: number) {
      await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },

    async countOf(userId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(userSshKeys).where(eq(userSshKeys.userId, userId));
      return row?.n ?? 0;
    },

    async byFingerprint(userId: number, fingerprint: string) {
      const [row] = await db
        .select({ id: userSshKeys.id })
        .from(userSshKeys)
        .where(and(eq(userSshKeys.userId, userId), eq(userSshKeys.fingerprint, fingerprint)));
      return row;
    },

    async insert(values: typeof userSshKeys.$inferInsert): Promise<SshKeyRow> {
      const [row] = await db.insert(userSshKeys).values(values).returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },

    /** Deletes the user's key; answers whether there was one (another user's id: false). */
    async delete(id: number, userId: number, tenantId: number): Promise<boolean> {
      const gone = await db
        .delete(userSshKeys)
        .where(and(eq(userSshKeys.id, id), ofUser(userId, tenantId)))
        .returning({ id: userSshKeys.id });
      return gone.length > 0;
    },
  };
}
