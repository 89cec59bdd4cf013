import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { verificationCodes } from './auth.tables.ts';

type CodeRow = typeof verificationCodes.$inferSelect;
type Target = Pick<CodeRow, 'tenantId' | 'phone' | 'purpose'>;

/** The advisory-lock class of code sends (two-key locks: apart from every one-key lock of ours). */
const CODE_LOCKS = 7341;

/** SQL of verification codes; expiry, attempt and cap rules stay in verification-codes.ts. */
export function createVerificationCodesRepository({ db }: { db: DbOrTx }) {
  const samePhoneSince = (t: Pick<Target, 'tenantId' | 'phone'>, since: Date) =>
    and(
      eq(verificationCodes.tenantId, t.tenantId),
      eq(verificationCodes.phone, t.phone),
      gt(verificationCodes.createdAt, since),
    );

  return {
    /** When the phone's latest code since `since` was issued. */
    async lastIssuedAt(t: Pick<Target, 'tenantId' | 'phone'>, since: Date): Promise<Date | undefined> {
      const [last] = await db
        .select({ createdAt: verificationCodes.createdAt })
        .from(verificationCodes)
        .where(samePhoneSince(t, since))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return last?.createdAt;
    },

    countForPhoneSince(t: Pick<Target, 'tenantId' | 'phone'>, since: Date): Promise<number> {
      return db.$count(verificationCodes, samePhoneSince(t, since));
    },

    countForIpSince(ip: string, since: Date): Promise<number> {
      return db.$count(
        verificationCodes,
        and(eq(verificationCodes.ip, ip), gt(verificationCodes.createdAt, since)),
      );
    },

    async insert(values: typeof verificationCodes.$inferInsert): Promise<number | undefined> {
      const [row] = await db.insert(verificationCodes).values(values).returning({ id: verificationCodes.id });
      return row?.id;
    },

    async delete(id: number) {
      await db.delete(verificationCodes).where(eq(verificationCodes.id, id));
    },

    /** The target's latest code not yet consumed. */
    async latestUnconsumed(t: Target): Promise<CodeRow | undefined> {
      const [live] = await db
        .select()
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.tenantId, t.tenantId),
            eq(verificationCodes.phone, t.phone),
            eq(verificationCodes.purpose, t.purpose),
            isNull(verificationCodes.consumedAt),
          ),
        )
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return live;
    },

    /** Counts one wrong try in one statement; answers the attempts now. */
    async countWrongTry(id: number): Promise<number | undefined> {
      const [after] = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(eq(verificationCodes.id, id))
        .returning({ attempts: verificationCodes.attempts });
      return after?.attempts;
    },

    /** Consumes the code unless someone else did first; answers whether this call did. */
    async consume(id: number, at: Date): Promise<boolean> {
      const consumed = await db
        .update(verificationCodes)
        .set({ consumedAt: at })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
        .returning({ id: verificationCodes.id });
      return consumed.length > 0;
    },
  };
}

export type VerificationCodesRepository = ReturnType<typeof createVerificationCodesRepository>;

/**
 * Runs `fn` in a transaction holding the phone's and then the address's code locks (always in
 * that order, so two sends never wait on each other in a cycle): two sends at once cannot both
 * pass the cooldown and the daily caps (DESIGN §8). The provider is called after it, outside.
 */
export function withSendLocks<T>(
  db: DbOrTx,
  t: Pick<Target, 'tenantId' | 'phone'>,
  ip: string,
  fn: (locked: VerificationCodesRepository) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${CODE_LOCKS}, hashtext(${`phone:${t.tenantId}:${t.phone}`}))`,
    );
    await tx.execute(sql`select pg_advisory_xact_lock(${CODE_LOCKS}, hashtext(${`ip:${ip}`}))`);
    return fn(createVerificationCodesRepository({ db: tx }));
  });
}
