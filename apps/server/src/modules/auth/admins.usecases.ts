import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../app/db/client.ts';
import { admins } from './auth.tables.ts';
import { hashPassword } from './passwords.ts';

/**
 * Creates the first admin when there is none. Returns the password only when it was generated,
 * so the caller can print it once.
 */
export async function ensureFirstAdmin(
  { db }: { db: Db },
  opts: { username: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(admins);
  if ((existing?.n ?? 0) > 0) return { created: false };
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const password = opts.password ?? (generated as string);
  const inserted = await db
    .insert(admins)
    .values({ username: opts.username, passwordHash: await hashPassword(password), roles: ['ADMIN'] })
    .onConflictDoNothing()
    .returning({ id: admins.id });
  if (inserted.length === 0) return { created: false };
  return { created: true, generatedPassword: generated };
}
