import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { ledgerEntries } from './ledger.tables.ts';
import { accountIn, codeOf, type Posting, postIn, type T } from './ledger.test-helpers.ts';
import { postLedgerEntries, reconcileAccount } from './ledger.ts';

let t: T;
let seq = 0;
const key = (p = 'test') => `${p}:${++seq}:${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  t = await createTestApp({ demo: false });
});
afterAll(() => t.close());

const post = (p: Posting) => postIn(t, key, p);
const account = (userId: number) => accountIn(t, userId);

describe('postLedgerEntries (several at once, as metering does)', () => {
  it('applies postings in order per account, across accounts, with the right balances after', async () => {
    const { user: a } = await t.createUser();
    const { user: b } = await t.createUser();
    await post({ userId: a.id, kind: 'recharge', amount: 1_000 });
    await post({ userId: b.id, kind: 'recharge', amount: 500 });
    const done = await post({ userId: b.id, kind: 'charge', amount: -10 });
    const results = await t.db.transaction((tx) =>
      postLedgerEntries(tx, [
        { userId: b.id, kind: 'charge', amount: -100, idempotencyKey: key() },
        { userId: a.id, kind: 'charge', amount: -300, idempotencyKey: key() },
        { userId: a.id, kind: 'charge', amount: -900, allowNegative: true, idempotencyKey: key() },
        // already posted: returned, not applied again
        { userId: b.id, kind: 'charge', amount: -10, idempotencyKey: done.entry.idempotencyKey },
      ]),
    );
    expect(results.map((r) => r.created)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.entry.availableAfter)).toEqual([390, 700, -200, 490]);
    expect(results[3]?.entry.id).toBe(done.entry.id);
    expect(await account(a.id)).toMatchObject({ available: -200 });
    expect(await account(b.id)).toMatchObject({ available: 390 });
    for (const u of [a, b]) expect((await reconcileAccount(t.db, u.id)).balanced).toBe(true);
  });

  it('rolls everything back when one posting is refused', async () => {
    const { user } = await t.createUser();
    await post({ userId: user.id, kind: 'recharge', amount: 100 });
    const first = key();
    const code = await codeOf(
      t.db.transaction((tx) =>
        postLedgerEntries(tx, [
          { userId: user.id, kind: 'charge', amount: -60, idempotencyKey: first },
          { userId: user.id, kind: 'charge', amount: -60, idempotencyKey: key() },
        ]),
      ),
    );
    expect(code).toBe('billing.insufficient_balance');
    expect(await account(user.id)).toMatchObject({ available: 100 });
    // the first key was not kept: it can be posted later
    expect(
      (await post({ userId: user.id, kind: 'charge', amount: -60, idempotencyKey: first })).created,
    ).toBe(true);
  });
});

describe('ledger_entries → accounts (user, tenant): one foreign key (issue 15)', () => {
  /** The PostgreSQL error under Drizzle's wrapper: its code and constraint name. */
  const pgError = async (p: Promise<unknown>) => {
    try {
      await p;
      return 'ok';
    } catch (err) {
      const e = ((err as { cause?: unknown }).cause ?? err) as { code?: string; constraint?: string };
      return `${e.code} ${e.constraint}`;
    }
  };
  const row = (userId: number, tenantId: number) => ({
    userId,
    tenantId,
    kind: 'adjustment' as const,
    amount: 1,
    availableAfter: 1,
    frozenAfter: 0,
    idempotencyKey: key('fk'),
  });

  it("refuses a ledger row whose tenant is not its account's, and one without an account", async () => {
    const { user } = await t.createUser();
    const [home] = await t.db.select().from(tenants).where(eq(tenants.id, user.tenantId));
    const [other] = await t.db
      .insert(tenants)
      .values({ code: `fk${++seq}`, name: '另一租户', config: home?.config as never })
      .returning();
    // Both the account and the tenant exist (the two former single-column keys would pass).
    expect(await pgError(t.db.insert(ledgerEntries).values(row(user.id, other?.id as number)))).toBe(
      '23503 ledger_entries_account_fk',
    );
    expect(await pgError(t.db.insert(ledgerEntries).values(row(2_000_000_000, user.tenantId)))).toBe(
      '23503 ledger_entries_account_fk',
    );
    // The account's own tenant is accepted.
    expect(await pgError(t.db.insert(ledgerEntries).values(row(user.id, user.tenantId)))).toBe('ok');
  });

  it("deleting a user deletes its account and the account's ledger (cascade, as before)", async () => {
    const { user } = await t.createUser();
    await post({ userId: user.id, kind: 'recharge', amount: 100 });
    await t.db.delete(users).where(eq(users.id, user.id));
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toEqual([]);
  });
});
