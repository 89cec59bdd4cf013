import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { applyMovement } from './ledger.models.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { accounts, ledgerEntries } from './ledger.tables.ts';
import { accountIn, codeOf, type Posting, postIn, type T } from './ledger.test-helpers.ts';
import { findUnbalancedAccounts, type LedgerPosting, postLedgerEntry, reconcileAccount } from './ledger.ts';

let t: T;
let seq = 0;
const key = (p = 'test') => `${p}:${++seq}:${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  t = await createTestApp({ demo: false });
});
afterAll(() => t.close());

const post = (p: Posting) => postIn(t, key, p);
const account = (userId: number) => accountIn(t, userId);

describe('applyMovement (pure rule)', () => {
  it('refuses debits below zero unless allowed, never lets frozen go negative, always takes credits', () => {
    expect(applyMovement({ available: 100, frozen: 0 }, { kind: 'charge', amount: -100 })).toEqual({
      ok: true,
      balances: { available: 0, frozen: 0 },
    });
    expect(applyMovement({ available: 100, frozen: 0 }, { kind: 'charge', amount: -101 }).ok).toBe(false);
    expect(
      applyMovement({ available: 100, frozen: 0 }, { kind: 'charge', amount: -101, allowNegative: true }),
    ).toEqual({
      ok: true,
      balances: { available: -1, frozen: 0 },
    });
    expect(applyMovement({ available: -50, frozen: 0 }, { kind: 'recharge', amount: 10 }).ok).toBe(true);
    expect(
      applyMovement({ available: 0, frozen: 5 }, { kind: 'refund', amount: 10, frozenAmount: -6 }),
    ).toEqual({
      ok: false,
      reason: 'insufficient_frozen',
    });
  });
});

describe('postLedgerEntry', () => {
  it('changes the balance and records signed amounts with balances after', async () => {
    const { user } = await t.createUser();
    const r1 = await post({
      userId: user.id,
      kind: 'recharge',
      amount: 2_000_000,
      reference: { type: 'x', id: 7 },
    });
    expect(r1.created).toBe(true);
    expect(r1.entry).toMatchObject({
      kind: 'recharge',
      amount: 2_000_000,
      availableAfter: 2_000_000,
      frozenAfter: 0,
      referenceType: 'x',
      referenceId: '7',
      tenantId: user.tenantId,
    });
    const r2 = await post({
      userId: user.id,
      kind: 'charge',
      amount: -500_000,
      frozenAmount: 300_000,
      memo: '冻结',
    });
    expect(r2.entry).toMatchObject({ availableAfter: 1_500_000, frozenAfter: 300_000, memo: '冻结' });
    expect(await account(user.id)).toMatchObject({ available: 1_500_000, frozen: 300_000 });
    expect(await reconcileAccount(t.db, user.id)).toMatchObject({
      balanced: true,
      entries: 2,
      ledgerAvailable: 1_500_000,
      ledgerFrozen: 300_000,
    });
  });

  it('treats a repeated idempotency key as done: same entry back, nothing changes', async () => {
    const { user } = await t.createUser();
    const k = key('recharge');
    const first = await post({ userId: user.id, kind: 'recharge', amount: 1_000_000, idempotencyKey: k });
    const again = await post({ userId: user.id, kind: 'recharge', amount: 1_000_000, idempotencyKey: k });
    expect(again).toEqual({ entry: first.entry, created: false });
    expect((await account(user.id))?.available).toBe(1_000_000);
    // A key reused for another posting is a bug and is refused loudly.
    expect(await codeOf(post({ userId: user.id, kind: 'recharge', amount: 5, idempotencyKey: k }))).toMatch(
      /already used/,
    );
  });

  it('writes ledger rows and balances in one statement: a taken key leaves the balance as it was', async () => {
    const a = (await t.createUser()).user;
    const b = (await t.createUser()).user;
    const k = key('recharge');
    await post({ userId: a.id, kind: 'recharge', amount: 1_000_000, idempotencyKey: k });
    // What a posting of b that raced a's key would write (the lookup having missed it): refused
    // by the key's unique index, and b's balance not moved either (no transaction around it).
    const repo = createLedgerRepository({ db: t.db });
    const row = {
      userId: b.id,
      tenantId: b.tenantId,
      kind: 'recharge' as const,
      amount: 5,
      frozenAmount: 0,
      availableAfter: 5,
      frozenAfter: 0,
      idempotencyKey: k,
    };
    const balance = [{ userId: b.id, available: 5, frozen: 0 }];
    const raced = repo.insertEntriesSettingBalances([row], balance, new Date());
    await expect(raced).rejects.toMatchObject({ cause: { code: '23505' } });
    expect((await account(b.id))?.available).toBe(0);
    expect(await t.db.$count(ledgerEntries, eq(ledgerEntries.userId, b.id))).toBe(0);
    // The same statement without the clash writes both.
    await repo.insertEntriesSettingBalances(
      [{ ...row, idempotencyKey: key('recharge') }],
      balance,
      new Date(),
    );
    expect((await account(b.id))?.available).toBe(5);
    expect((await reconcileAccount(t.db, b.id)).balanced).toBe(true);
  });

  it('refuses a debit below zero with 422 and rolls back the caller’s whole transaction', async () => {
    const { user } = await t.createUser();
    await post({ userId: user.id, kind: 'recharge', amount: 100 });
    const attempt = t.db.transaction(async (tx) => {
      await postLedgerEntry(tx, { userId: user.id, kind: 'charge', amount: -60, idempotencyKey: key() });
      await postLedgerEntry(tx, { userId: user.id, kind: 'charge', amount: -60, idempotencyKey: key() });
    });
    expect(await codeOf(attempt)).toBe('billing.insufficient_balance');
    expect((await account(user.id))?.available).toBe(100);
    expect((await reconcileAccount(t.db, user.id)).entries).toBe(1);
    // Pay-as-you-go metering may run into arrears; a later recharge still lands.
    await post({ userId: user.id, kind: 'charge', amount: -150, allowNegative: true });
    expect((await account(user.id))?.available).toBe(-50);
    await post({ userId: user.id, kind: 'recharge', amount: 100 });
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(true);
    expect(await codeOf(post({ userId: user.id, kind: 'refund', amount: 1, frozenAmount: -1 }))).toBe(
      'billing.insufficient_frozen',
    );
  });

  it('refuses movements no caller should build, and unknown accounts', async () => {
    const { user } = await t.createUser();
    expect(await codeOf(post({ userId: user.id, kind: 'charge', amount: 0 }))).toMatch(/zero/);
    expect(await codeOf(post({ userId: user.id, kind: 'charge', amount: 1.5 }))).toMatch(/integer/);
    expect(await codeOf(post({ userId: user.id, kind: 'recharge', amount: -1 }))).toMatch(/recharge/);
    expect(await codeOf(post({ userId: 999_999, kind: 'adjustment', amount: 1 }))).toBe(
      'billing.account_missing',
    );
  });

  it('serialises concurrent postings of one account: same key once, debits never overdraw', async () => {
    const { user } = await t.createUser();
    const k = key('once');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post({ userId: user.id, kind: 'recharge', amount: 1_000, idempotencyKey: k }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const debits = await Promise.all(
      Array.from({ length: 20 }, () => codeOf(post({ userId: user.id, kind: 'charge', amount: -300 }))),
    );
    expect(debits.filter((d) => d === 'ok')).toHaveLength(3);
    expect((await account(user.id))?.available).toBe(100);
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(true);
  });

  it('keeps balance = Σ ledger and never overdraws without permission (property)', async () => {
    const op = fc.record({
      kind: fc.constantFrom('recharge', 'charge', 'refund', 'voucher', 'adjustment') as fc.Arbitrary<
        LedgerPosting['kind']
      >,
      amount: fc.integer({ min: -5_000_000, max: 5_000_000 }).filter((n) => n !== 0),
      frozen: fc.integer({ min: -100_000, max: 100_000 }),
      allowNegative: fc.boolean(),
      /** Reuse an earlier key (a retry) instead of a new one. */
      replay: fc.nat({ max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { user } = await t.createUser();
        const done: { posting: LedgerPosting }[] = [];
        let model = { available: 0, frozen: 0 };
        for (const o of ops) {
          const previous = done[o.replay];
          const posting: LedgerPosting =
            o.replay < 3 && previous
              ? previous.posting
              : {
                  userId: user.id,
                  kind: o.kind,
                  amount: o.kind === 'recharge' ? Math.abs(o.amount) : o.amount,
                  frozenAmount: o.kind === 'recharge' ? 0 : o.frozen,
                  allowNegative: o.allowNegative,
                  idempotencyKey: key('prop'),
                };
          const outcome = applyMovement(model, posting);
          const result = await codeOf(t.db.transaction((tx) => postLedgerEntry(tx, posting)));
          const isReplay = done.some((d) => d.posting === posting);
          if (isReplay) {
            expect(result).toBe('ok');
          } else if (outcome.ok) {
            expect(result).toBe('ok');
            model = outcome.balances;
            done.push({ posting });
          } else {
            expect(result).toMatch(/^billing\.insufficient_/);
          }
          const a = await account(user.id);
          expect(a).toMatchObject(model);
          if (result === 'ok' && !isReplay && !posting.allowNegative && posting.amount < 0) {
            expect(a?.available).toBeGreaterThanOrEqual(0);
          }
        }
        const rec = await reconcileAccount(t.db, user.id);
        expect(rec.balanced).toBe(true);
        expect(rec.entries).toBe(done.length);
      }),
      { numRuns: 40 },
    );
    expect(await findUnbalancedAccounts(t.db)).toEqual([]);
  });

  it('finds an account changed behind the ledger’s back', async () => {
    const { user } = await t.createUser();
    await post({ userId: user.id, kind: 'recharge', amount: 10 });
    await t.db.update(accounts).set({ available: 11 }).where(eq(accounts.userId, user.id));
    expect(await findUnbalancedAccounts(t.db)).toEqual([
      { userId: user.id, available: 11, frozen: 0, ledgerAvailable: 10, ledgerFrozen: 0 },
    ]);
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(false);
    await t.db.update(accounts).set({ available: 10 }).where(eq(accounts.userId, user.id));
    expect(await findUnbalancedAccounts(t.db)).toEqual([]);
  });
});
