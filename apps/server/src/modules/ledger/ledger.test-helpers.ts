import { eq } from 'drizzle-orm';
import { isAppError } from '../../platform/errors.ts';
import type { createTestApp } from '../../test/test-app.ts';
import { accounts } from './ledger.tables.ts';
import { type LedgerPosting, postLedgerEntry } from './ledger.ts';

export type T = Awaited<ReturnType<typeof createTestApp>>;
export type Posting = Omit<LedgerPosting, 'idempotencyKey'> & { idempotencyKey?: string };

/** Posts in a transaction of its own, under a fresh key unless the posting names one. */
export const postIn = (t: T, key: () => string, p: Posting) =>
  t.db.transaction((tx) => postLedgerEntry(tx, { idempotencyKey: key(), ...p }));

/** The account row of a user. */
export const accountIn = async (t: T, userId: number) =>
  (await t.db.select().from(accounts).where(eq(accounts.userId, userId)))[0];

/** 'ok', or the error code (the message of an error that is not the app's) a promise ends with. */
export const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return isAppError(err) ? err.code : (err as Error).message;
  }
};
