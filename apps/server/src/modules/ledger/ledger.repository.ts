import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { accounts, ledgerEntries } from './ledger.tables.ts';

export type AccountRow = typeof accounts.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type NewLedgerEntry = typeof ledgerEntries.$inferInsert;

const param = sql.placeholder;

// Every posting runs these (issue 15): built once per process, prepared once per connection.
const lockAccountsStatement = preparedStatement('ledger_lock_accounts', (db) =>
  db
    .select()
    .from(accounts)
    .where(sql`${accounts.userId} = any(${param('userIds')}::int[])`)
    .orderBy(accounts.userId)
    .for('update'),
);
const entriesByKeysStatement = preparedStatement('ledger_entries_by_keys', (db) =>
  db
    .select()
    .from(ledgerEntries)
    .where(sql`${ledgerEntries.idempotencyKey} = any(${param('keys')}::text[])`),
);
// A posting's one account and one key (nearly every posting but metering's): a statement of
// their own. PostgreSQL prices an array placeholder at ten elements, so the generic plan of the
// array statements looks dearer than a custom one and they were planned afresh on every posting.
const lockAccountStatement = preparedStatement('ledger_lock_account', (db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.userId, param('userId')))
    .for('update'),
);
const entryByKeyStatement = preparedStatement('ledger_entry_by_key', (db) =>
  db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.idempotencyKey, param('key'))),
);
/** One account (the balance on every console view). */
const accountStatement = preparedStatement('ledger_account', (db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.userId, param('userId')))
    .limit(1),
);
/** One account's one posting (the common case): its row and the account's new balances. */
const insertOneSettingBalanceStatement = preparedStatement('ledger_insert_one', (db) => {
  const setBalance = db.$with('set_balance', { one: sql`one` }).as(sql`
    update accounts
    set available = ${param('available')}::bigint, frozen = ${param('frozen')}::bigint,
        updated_at = ${param('at')}::timestamptz
    where user_id = ${param('userId')}::integer
    returning 1 as one`);
  return db
    .with(setBalance)
    .insert(ledgerEntries)
    .values({
      userId: param('userId'),
      tenantId: param('tenantId'),
      kind: param('kind'),
      amount: param('amount'),
      frozenAmount: param('frozenAmount'),
      availableAfter: param('availableAfter'),
      frozenAfter: param('frozenAfter'),
      idempotencyKey: param('idempotencyKey'),
      referenceType: param('referenceType'),
      referenceId: param('referenceId'),
      memo: param('memo'),
      // A raw placeholder, not the column's: the entry's own time may be left out (now()).
      createdAt: sql`coalesce(${param('createdAt')}::timestamptz, now())`,
    })
    .returning();
});

export function createLedgerRepository({ db }: { db: DbOrTx }) {
  return {
    /** A user's zero-balance account (registration opens it with the user). */
    async openAccount(owner: { userId: number; tenantId: number }) {
      await db.insert(accounts).values(owner);
    },
    async account(userId: number): Promise<AccountRow | undefined> {
      const [a] = await accountStatement(db, { userId });
      return a;
    },
    /** Available balances of several users at once (metering's arrears check). */
    async availableOf(userIds: number[]): Promise<Map<number, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: accounts.userId, available: accounts.available })
        .from(accounts)
        .where(inArray(accounts.userId, userIds));
      return new Map(rows.map((r) => [r.userId, r.available]));
    },
    /** The account row, locked until the end of the caller's transaction. */
    async lockAccount(userId: number): Promise<AccountRow | undefined> {
      const [a] = await lockAccountStatement(db, { userId });
      return a;
    },
    /** Account rows in user-id order (one lock order for every caller: no deadlocks), locked. */
    lockAccounts: (userIds: number[]): Promise<AccountRow[]> =>
      userIds.length === 1
        ? lockAccountStatement(db, { userId: userIds[0] as number })
        : lockAccountsStatement(db, { userIds }),
    entriesByKeys: (keys: string[]): Promise<LedgerEntry[]> =>
      keys.length === 0
        ? Promise.resolve([])
        : keys.length === 1
          ? entryByKeyStatement(db, { key: keys[0] as string })
          : entriesByKeysStatement(db, { keys }),
    /**
     * Ledger rows and the new balances of their (locked) accounts, in one statement: both or
     * neither. A row whose idempotency key exists fails the whole statement (unique index).
     */
    async insertEntriesSettingBalances(
      rows: NewLedgerEntry[],
      balances: { userId: number; available: number; frozen: number }[],
      at: Date,
    ): Promise<LedgerEntry[]> {
      const [row] = rows;
      const [balance] = balances;
      if (rows.length === 1 && balances.length === 1 && row && balance && row.userId === balance.userId) {
        return insertOneSettingBalanceStatement(db, {
          userId: row.userId,
          tenantId: row.tenantId,
          kind: row.kind,
          amount: row.amount,
          frozenAmount: row.frozenAmount ?? 0,
          availableAfter: row.availableAfter,
          frozenAfter: row.frozenAfter,
          idempotencyKey: row.idempotencyKey,
          referenceType: row.referenceType ?? null,
          referenceId: row.referenceId ?? null,
          memo: row.memo ?? null,
          createdAt: row.createdAt ? row.createdAt.toISOString() : null,
          available: balance.available,
          frozen: balance.frozen,
          at: at.toISOString(),
        });
      }
      const values = sql.join(
        balances.map((r) => sql`(${r.userId}::integer, ${r.available}::bigint, ${r.frozen}::bigint)`),
        sql`, `,
      );
      const setBalances = db.$with('set_balances', { one: sql`one` }).as(sql`
        update accounts as a
        set available = v.available, frozen = v.frozen, updated_at = ${at}
        from (values ${values}) as v(user_id, available, frozen)
        where a.user_id = v.user_id
        returning 1 as one`);
      return db.with(setBalances).insert(ledgerEntries).values(rows).returning();
    },
    entries: (userId: number, limit = 100) =>
      db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, userId))
        .orderBy(desc(ledgerEntries.id))
        .limit(limit),
    entriesFor: (referenceType: string, referenceId: string) =>
      db
        .select()
        .from(ledgerEntries)
        .where(
          and(eq(ledgerEntries.referenceType, referenceType), eq(ledgerEntries.referenceId, referenceId)),
        ),
    /** Σ of the ledger of one user, and the balances the latest row says. */
    async ledgerSums(userId: number) {
      const [s] = await db
        .select({
          available: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text`,
          frozen: sql<string>`coalesce(sum(${ledgerEntries.frozenAmount}), 0)::text`,
          count: sql<number>`count(*)::int`,
        })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, userId));
      const [last] = await db
        .select({ availableAfter: ledgerEntries.availableAfter, frozenAfter: ledgerEntries.frozenAfter })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, userId))
        .orderBy(desc(ledgerEntries.id))
        .limit(1);
      return {
        available: Number(s?.available ?? 0),
        frozen: Number(s?.frozen ?? 0),
        count: s?.count ?? 0,
        last,
      };
    },
    /** Every account whose balances differ from the sums of its ledger (should be none). */
    async unbalancedAccounts() {
      const l = db
        .select({
          userId: ledgerEntries.userId,
          la: sql<string>`sum(${ledgerEntries.amount})`.as('la'),
          lf: sql<string>`sum(${ledgerEntries.frozenAmount})`.as('lf'),
        })
        .from(ledgerEntries)
        .groupBy(ledgerEntries.userId)
        .as('l');
      const rows = await db
        .select({
          userId: accounts.userId,
          available: accounts.available,
          frozen: accounts.frozen,
          ledgerAvailable: sql<string>`coalesce(${l.la}, 0)::text`,
          ledgerFrozen: sql<string>`coalesce(${l.lf}, 0)::text`,
        })
        .from(accounts)
        .leftJoin(l, eq(l.userId, accounts.userId))
        .where(
          sql`${accounts.available} <> coalesce(${l.la}, 0) or ${accounts.frozen} <> coalesce(${l.lf}, 0)`,
        );
      return rows.map((r) => ({
        ...r,
        ledgerAvailable: Number(r.ledgerAvailable),
        ledgerFrozen: Number(r.ledgerFrozen),
      }));
    },
  };
}
