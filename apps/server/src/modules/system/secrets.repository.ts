import { and, asc, eq, gt, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { admins } from '../auth/auth.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { idempotencyRequests } from '../idempotency/idempotency.tables.ts';
import { instances } from '../instances/instances.tables.ts';

/** `column` does not start with `prefix` (the sealed-value prefix of the current key). */
const notUnder = (column: AnyPgColumn, prefix: string): SQL =>
  sql`left(${column}, ${prefix.length}) <> ${prefix}`;

/** The sealed columns of an instance. */
const INSTANCE_SECRETS = {
  rootPasswordEnc: instances.rootPasswordEnc,
  jupyterTokenEnc: instances.jupyterTokenEnc,
} as const;
export type InstanceSecret = keyof typeof INSTANCE_SECRETS;

/** The stored secrets, read and rewritten for sealing and key rotation (system/secrets.usecases.ts). */
export function createSecretsRepository({ db }: { db: DbOrTx }) {
  return {
    async hostSettings() {
      return db.select({ id: hosts.id, settings: hosts.settings }).from(hosts).orderBy(asc(hosts.id));
    },
    /** Writes `next` only if the row still holds `previous` (an admin's edit meanwhile wins). */
    async replaceHostSettings(id: number, previous: unknown, next: Record<string, unknown>) {
      const rows = await db
        .update(hosts)
        .set({ settings: next })
        .where(and(eq(hosts.id, id), sql`${hosts.settings} = ${JSON.stringify(previous)}::jsonb`))
        .returning({ id: hosts.id });
      return rows.length === 1;
    },
    /** Rows whose sealed `column` (root password, JupyterLab token) is not under `prefix`. */
    async instanceSecretsNotUnder(column: InstanceSecret, prefix: string, afterId: number, limit: number) {
      const c = INSTANCE_SECRETS[column];
      const rows = await db
        .select({ id: instances.id, value: c })
        .from(instances)
        .where(and(gt(instances.id, afterId), isNotNull(c), notUnder(c, prefix)))
        .orderBy(asc(instances.id))
        .limit(limit);
      return rows as { id: number; value: string }[];
    },
    async replaceInstanceSecret(column: InstanceSecret, id: number, previous: string, next: string) {
      const rows = await db
        .update(instances)
        .set({ [column]: next })
        .where(and(eq(instances.id, id), eq(INSTANCE_SECRETS[column], previous)))
        .returning({ id: instances.id });
      return rows.length === 1;
    },
    async storedAnswersNotUnder(prefix: string, afterId: number, limit: number) {
      const t = idempotencyRequests;
      const rows = await db
        .select({ id: t.id, value: t.responseBody })
        .from(t)
        .where(and(gt(t.id, afterId), isNotNull(t.responseBody), notUnder(t.responseBody, prefix)))
        .orderBy(asc(t.id))
        .limit(limit);
      return rows as { id: number; value: string }[];
    },
    /** Administrators whose sealed 2FA secret is not under `prefix`. */
    async adminSecretsNotUnder(prefix: string, afterId: number, limit: number) {
      const rows = await db
        .select({ id: admins.id, value: admins.totpSecret })
        .from(admins)
        .where(and(gt(admins.id, afterId), isNotNull(admins.totpSecret), notUnder(admins.totpSecret, prefix)))
        .orderBy(asc(admins.id))
        .limit(limit);
      return rows as { id: number; value: string }[];
    },
    async replaceAdminSecret(id: number, previous: string, next: string) {
      const rows = await db
        .update(admins)
        .set({ totpSecret: next })
        .where(and(eq(admins.id, id), eq(admins.totpSecret, previous)))
        .returning({ id: admins.id });
      return rows.length === 1;
    },
    async replaceStoredAnswer(id: number, previous: string, next: string) {
      const t = idempotencyRequests;
      const rows = await db
        .update(t)
        .set({ responseBody: next })
        .where(and(eq(t.id, id), eq(t.responseBody, previous)))
        .returning({ id: t.id });
      return rows.length === 1;
    },
  };
}
