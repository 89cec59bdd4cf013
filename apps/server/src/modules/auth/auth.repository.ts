import { isAdminRole } from '@gpu/shared';
import { and, desc, eq, gt, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { admins, authSessions, loginFailures, refreshTokens, users } from './auth.tables.ts';
import type { AuthAdmin, AuthUser } from './auth.types.ts';

export type UserRow = typeof users.$inferSelect;
export type AdminRow = typeof admins.$inferSelect;
export interface SessionOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

/** The live session `sid` of this subject, joined into the per-request lookup (one indexed read). */
const liveSession = (audience: 'user' | 'admin', sid: Placeholder, subjectId: Placeholder) =>
  sql`exists (select 1 from ${authSessions} where ${authSessions.id} = ${sid} and ${authSessions.audience} = ${audience} and ${authSessions.subjectId} = ${subjectId} and ${authSessions.revokedAt} is null)`;

/** The per-request lookups' parameters: built once and named, so neither Drizzle nor PostgreSQL prepares them again. */
const ID = sql.placeholder('id');
/** The app_meta key of which roles must use 2FA (admins module writes it). */
export const ADMIN_TOTP_POLICY_KEY = 'admin_totp_policy';
const SID = sql.placeholder('sid');

const userLookup = preparedStatement('auth_active_user', (db) =>
  db
    .select({ id: users.id, tenantId: users.tenantId, tva: users.tokensValidAfter })
    .from(users)
    .where(and(eq(users.id, ID), eq(users.status, 'ACTIVE'), liveSession('user', SID, ID)))
    .limit(1),
);
const adminLookup = preparedStatement('auth_active_admin', (db) =>
  db
    .select({
      id: admins.id,
      username: admins.username,
      roles: admins.roles,
      role: admins.role,
      tenantId: admins.tenantId,
      mustChangePassword: admins.mustChangePassword,
      totpEnabled: sql<boolean>`${admins.totpEnabledAt} is not null`,
      // Whether the super administrator's 2FA rule covers this role (issue 29), read per request.
      totpRequired: sql<boolean>`coalesce((select (${appMeta.value} ->> ${admins.role})::boolean from ${appMeta} where ${appMeta.key} = ${ADMIN_TOTP_POLICY_KEY}), false)`,
      tva: admins.tokensValidAfter,
    })
    .from(admins)
    .where(and(eq(admins.id, ID), eq(admins.status, 'ACTIVE'), liveSession('admin', SID, ID)))
    .limit(1),
);

export function createAuthRepository({ db }: { db: DbOrTx }) {
  async function createSession(
    audience: 'user' | 'admin',
    subjectId: number,
    id: string,
    at: Date,
    origin: SessionOrigin = {},
  ) {
    await db
      .insert(authSessions)
      .values({
        id,
        audience,
        subjectId,
        createdAt: at,
        ip: origin.ip ?? null,
        userAgent: origin.userAgent ?? null,
      })
      .onConflictDoNothing();
  }
  /** A user's latest sign-ins, newest first. */
  async function recentSessions(userId: number, limit: number) {
    return db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.audience, 'user'), eq(authSessions.subjectId, userId)))
      .orderBy(desc(authSessions.createdAt))
      .limit(limit);
  }
  /** When the session `id` was signed in, or undefined when there is no such session. */
  async function sessionStartedAt(audience: 'user' | 'admin', id: string): Promise<Date | undefined> {
    const [row] = await db
      .select({ createdAt: authSessions.createdAt })
      .from(authSessions)
      .where(and(eq(authSessions.id, id), eq(authSessions.audience, audience)))
      .limit(1);
    return row?.createdAt;
  }
  async function revokeSession(audience: 'user' | 'admin', id: string, at: Date) {
    await db
      .update(authSessions)
      .set({ revokedAt: at })
      .where(
        and(eq(authSessions.id, id), eq(authSessions.audience, audience), isNull(authSessions.revokedAt)),
      );
  }
  async function revokeSessionsOf(audience: 'user' | 'admin', subjectId: number, at: Date) {
    await db
      .update(authSessions)
      .set({ revokedAt: at })
      .where(
        and(
          eq(authSessions.audience, audience),
          eq(authSessions.subjectId, subjectId),
          isNull(authSessions.revokedAt),
        ),
      );
  }

  return {
    async adminCount() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(admins);
      return row?.n ?? 0;
    },

    /** Inserts an admin unless the name is taken; null when it was. */
    async insertAdmin(values: { username: string; passwordHash: string; roles: string[] }) {
      const [row] = await db.insert(admins).values(values).onConflictDoNothing().returning({ id: admins.id });
      return row ?? null;
    },

    /**
     * The user if active, the token (issued at `issuedAtMs`) is not older than a revocation, and
     * its session is live. Read on every request, no cache: a logout takes effect at once.
     */
    async findActiveUser(
      id: number,
      issuedAtMs: number,
      sid: string,
    ): Promise<Omit<AuthUser, 'sessionId' | 'accessToken'> | null> {
      const [u] = await userLookup(db, { id, sid });
      if (!u || issuedAtMs < u.tva.getTime()) return null;
      return { id: u.id, tenantId: u.tenantId };
    },
    async findActiveAdmin(
      id: number,
      issuedAtMs: number,
      sid: string,
    ): Promise<Omit<AuthAdmin, 'sessionId'> | null> {
      const [a] = await adminLookup(db, { id, sid });
      if (!a || issuedAtMs < a.tva.getTime()) return null;
      return {
        id: a.id,
        username: a.username,
        roles: a.roles,
        role: isAdminRole(a.role) ? a.role : 'READONLY',
        tenantId: a.tenantId,
        mustChangePassword: a.mustChangePassword,
        totpEnabled: a.totpEnabled,
        mustEnrolTotp: a.totpRequired && !a.totpEnabled,
      };
    },

    async userById(id: number): Promise<UserRow | undefined> {
      const [u] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return u;
    },
    async userByPhone(tenantId: number, phone: string): Promise<UserRow | undefined> {
      const [u] = await db
        .select()
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.phone, phone)))
        .limit(1);
      return u;
    },
    async isTaken(tenantId: number, field: 'phone' | 'username' | 'email', value: string): Promise<boolean> {
      const col = { phone: users.phone, username: users.username, email: users.email }[field];
      return (await db.$count(users, and(eq(users.tenantId, tenantId), eq(col, value)))) > 0;
    },
    /** A new user, or null when the phone is taken. */
    async createUser(input: {
      tenantId: number;
      phone: string;
      passwordHash: string;
      salesName?: string;
      salesPhone?: string;
    }): Promise<UserRow | null> {
      const [u] = await db
        .insert(users)
        .values({
          ...input,
          username: input.phone,
          salesName: input.salesName || null,
          salesPhone: input.salesPhone || null,
        })
        .onConflictDoNothing()
        .returning();
      return u ?? null;
    },
    async updateUser(id: number, patch: Partial<typeof users.$inferInsert>) {
      await db
        .update(users)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },

    adminByUsername: async (username: string): Promise<AdminRow | undefined> =>
      (await db.select().from(admins).where(eq(admins.username, username)).limit(1))[0],
    async updateAdmin(id: number, patch: Partial<typeof admins.$inferInsert>) {
      await db
        .update(admins)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(admins.id, id));
    },

    /** Recent failures on `account`: from every address, and from `ip`. */
    async recentFailures(account: string, ip: string, since: Date) {
      const [row] = await db
        .select({
          all: sql<number>`count(*)::int`,
          fromIp: sql<number>`(count(*) filter (where ${loginFailures.ip} = ${ip}))::int`,
        })
        .from(loginFailures)
        .where(and(eq(loginFailures.account, account), gt(loginFailures.createdAt, since)));
      return { all: row?.all ?? 0, fromIp: row?.fromIp ?? 0 };
    },
    async recordFailure(account: string, ip: string, at: Date) {
      await db.insert(loginFailures).values({ account, ip, createdAt: at });
    },
    /** Forgets failures on `account`: from `ip` only (a sign-in), or all (a password reset). */
    async clearFailures(account: string, ip?: string) {
      await db
        .delete(loginFailures)
        .where(
          and(eq(loginFailures.account, account), ip === undefined ? undefined : eq(loginFailures.ip, ip)),
        );
    },

    createSession,
    sessionStartedAt,
    recentSessions,
    revokeSession,
    revokeSessionsOf,

    async insertRefreshToken(row: typeof refreshTokens.$inferInsert) {
      await db.insert(refreshTokens).values(row);
    },
    refreshTokenByHash: async (tokenHash: string) =>
      (await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1))[0],
    /** Marks a refresh token used; false when someone used it first. */
    async markRefreshUsed(id: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(refreshTokens)
        .set({ usedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      return rows.length > 0;
    },
    /** Ends a refresh family and the session it carries (logout, reuse of a spent token). */
    async revokeFamily(family: string, at: Date) {
      await revokeSession('user', family, at);
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
    },
    async revokeAllForUser(userId: number, at: Date) {
      await revokeSessionsOf('user', userId, at);
      await db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
