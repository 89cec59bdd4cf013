import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { admins, authSessions } from '../auth/auth.tables.ts';
import { ADMIN_TOTP_POLICY_KEY } from '../auth/index.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { adminRecoveryCodes, adminRefreshTokens } from './admins.tables.ts';

export type AdminRow = typeof admins.$inferSelect;

/** A session that is not revoked and whose refresh family still has a token to rotate. */
const liveFamily = (now: Date) =>
  sql`${authSessions.revokedAt} is null and exists (select 1 from ${adminRefreshTokens} where ${adminRefreshTokens.family} = ${authSessions.id} and ${adminRefreshTokens.usedAt} is null and ${adminRefreshTokens.revokedAt} is null and ${adminRefreshTokens.expiresAt} > ${now})`;

export function createAdminsRepository({ db }: { db: DbOrTx }) {
  return {
    adminById: async (id: number): Promise<AdminRow | undefined> =>
      (await db.select().from(admins).where(eq(admins.id, id)).limit(1))[0],
    adminByUsername: async (username: string): Promise<AdminRow | undefined> =>
      (await db.select().from(admins).where(eq(admins.username, username)).limit(1))[0],
    async tenantName(id: number | null): Promise<string | null> {
      if (id === null) return null;
      const [t] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, id)).limit(1);
      return t?.name ?? null;
    },
    async tenantExists(id: number): Promise<boolean> {
      return (await db.$count(tenants, eq(tenants.id, id))) > 0;
    },
    async insertAdmin(values: typeof admins.$inferInsert): Promise<AdminRow | null> {
      const [row] = await db.insert(admins).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },
    async updateAdmin(id: number, patch: Partial<typeof admins.$inferInsert>) {
      await db
        .update(admins)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(admins.id, id));
    },
    /** Records a TOTP step as used; false when this step (or a later one) was used already. */
    async useTotpStep(id: number, step: number): Promise<boolean> {
      const rows = await db
        .update(admins)
        .set({ totpLastStep: step })
        .where(and(eq(admins.id, id), sql`coalesce(${admins.totpLastStep}, -1) < ${step}`))
        .returning({ id: admins.id });
      return rows.length > 0;
    },
    /**
     * Locks the active super administrators' rows and returns their ids: two demotions at once
     * queue here, and the second sees the first's result (the last super stays).
     */
    async lockActiveSupers(): Promise<number[]> {
      const rows = await db
        .select({ id: admins.id })
        .from(admins)
        .where(and(eq(admins.role, 'SUPER'), eq(admins.status, 'ACTIVE')))
        .for('update');
      return rows.map((r) => r.id);
    },
    /** Every administrator with its tenant's name and live session count; `id` narrows it to one. */
    async list(now: Date, id?: number) {
      const active = db
        .select({ subjectId: authSessions.subjectId, n: count().as('n') })
        .from(authSessions)
        .where(
          and(
            eq(authSessions.audience, 'admin'),
            liveFamily(now),
            id === undefined ? undefined : eq(authSessions.subjectId, id),
          ),
        )
        .groupBy(authSessions.subjectId)
        .as('active');
      return db
        .select({
          admin: admins,
          tenantName: tenants.name,
          activeSessions: sql<number>`coalesce(${active.n}, 0)::int`,
        })
        .from(admins)
        .leftJoin(tenants, eq(tenants.id, admins.tenantId))
        .leftJoin(active, eq(active.subjectId, admins.id))
        .where(id === undefined ? undefined : eq(admins.id, id))
        .orderBy(asc(admins.id));
    },
    /** An administrator's live sessions, newest first. */
    async liveSessions(adminId: number, now: Date) {
      return db
        .select()
        .from(authSessions)
        .where(and(eq(authSessions.audience, 'admin'), eq(authSessions.subjectId, adminId), liveFamily(now)))
        .orderBy(sql`${authSessions.createdAt} desc`);
    },
    async sessionOf(adminId: number, sid: string) {
      const [row] = await db
        .select()
        .from(authSessions)
        .where(
          and(
            eq(authSessions.audience, 'admin'),
            eq(authSessions.subjectId, adminId),
            eq(authSessions.id, sid),
          ),
        )
        .limit(1);
      return row;
    },
    async touchSession(sid: string, at: Date) {
      await db.update(authSessions).set({ lastSeenAt: at }).where(eq(authSessions.id, sid));
    },

    async insertRefreshToken(row: typeof adminRefreshTokens.$inferInsert) {
      await db.insert(adminRefreshTokens).values(row);
    },
    refreshTokenByHash: async (tokenHash: string) =>
      (
        await db.select().from(adminRefreshTokens).where(eq(adminRefreshTokens.tokenHash, tokenHash)).limit(1)
      )[0],
    /** Marks a refresh token used; false when someone used it first. */
    async markRefreshUsed(id: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(adminRefreshTokens)
        .set({ usedAt: at })
        .where(
          and(
            eq(adminRefreshTokens.id, id),
            isNull(adminRefreshTokens.usedAt),
            isNull(adminRefreshTokens.revokedAt),
          ),
        )
        .returning({ id: adminRefreshTokens.id });
      return rows.length > 0;
    },
    /** Ends a session: its access tokens (auth_sessions) and its refresh tokens. */
    async revokeFamily(family: string, at: Date) {
      await db
        .update(authSessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(authSessions.id, family),
            eq(authSessions.audience, 'admin'),
            isNull(authSessions.revokedAt),
          ),
        );
      await db
        .update(adminRefreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(adminRefreshTokens.family, family), isNull(adminRefreshTokens.revokedAt)));
    },
    /** Ends every session of an administrator (disabled, password reset or changed), but `keep`. */
    async revokeAllOf(adminId: number, at: Date, keep?: string) {
      await db
        .update(authSessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(authSessions.audience, 'admin'),
            eq(authSessions.subjectId, adminId),
            isNull(authSessions.revokedAt),
            keep === undefined ? undefined : ne(authSessions.id, keep),
          ),
        );
      await db
        .update(adminRefreshTokens)
        .set({ revokedAt: at })
        .where(
          and(
            eq(adminRefreshTokens.adminId, adminId),
            isNull(adminRefreshTokens.revokedAt),
            keep === undefined ? undefined : ne(adminRefreshTokens.family, keep),
          ),
        );
    },

    async replaceRecoveryCodes(adminId: number, hashes: string[], at: Date) {
      await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
      if (hashes.length > 0)
        await db
          .insert(adminRecoveryCodes)
          .values(hashes.map((codeHash) => ({ adminId, codeHash, createdAt: at })));
    },
    /** Spends a recovery code; false when it is unknown or spent (one use, even at once). */
    async useRecoveryCode(adminId: number, codeHash: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(adminRecoveryCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(adminRecoveryCodes.adminId, adminId),
            eq(adminRecoveryCodes.codeHash, codeHash),
            isNull(adminRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: adminRecoveryCodes.id });
      return rows.length > 0;
    },

    async totpPolicy(): Promise<Record<string, boolean>> {
      const [row] = await db.select().from(appMeta).where(eq(appMeta.key, ADMIN_TOTP_POLICY_KEY)).limit(1);
      return (row?.value as Record<string, boolean> | undefined) ?? {};
    },
    async setTotpPolicy(policy: Record<string, boolean>) {
      await db
        .insert(appMeta)
        .values({ key: ADMIN_TOTP_POLICY_KEY, value: policy })
        .onConflictDoUpdate({ target: appMeta.key, set: { value: policy } });
    },
  };
}
export type AdminsRepository = ReturnType<typeof createAdminsRepository>;
