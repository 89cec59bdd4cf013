import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { reconcileAccount } from '../ledger/ledger.ts';
import { createBlockchainRepository } from './blockchain.repository.ts';
import { pollPendingBlockchainOrders, refreshBlockchainOrder } from './blockchain.usecases.ts';
import { createSimulatedChainDriver } from './drivers/simulated/simulated-chain.ts';

/** Confirmation races on real PostgreSQL (scripts/with-postgres.sh). */
describe.runIf(Boolean(process.env.DATABASE_URL))('blockchain orders on PostgreSQL', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const clock = fixedClock('2026-11-22T08:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ clock, demo: false, config: { CHAIN_PROVIDER: 'simulated' } });
  });
  afterAll(() => t.close());

  const hash = () => randomBytes(32).toString('hex');

  it('credits an order once under concurrent polls, status calls and refreshes', async () => {
    const { user, headers } = await t.createUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blockchain/orders',
      headers,
      payload: { chain: 'ETHEREUM', currency: 'USDC', amount: '50', txHash: hash() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().data;
    const repo = createBlockchainRepository({ db: t.db });
    const row = await repo.anyByNo(order.orderNo);
    if (!row) throw new Error('order missing');
    await repo.putSimulatedTx({ ...row, status: 'CONFIRMED' });

    // A slow chain answer puts every caller past the lookup before any of them commits.
    const simulated = createSimulatedChainDriver({ db: t.db });
    const deps = {
      ...t.app.deps.modules.blockchain,
      chain: {
        kind: 'simulated' as const,
        lookup: async (q: Parameters<typeof simulated.lookup>[0]) => {
          const state = await simulated.lookup(q);
          await sleep(50);
          return state;
        },
      },
    };
    await Promise.all([
      ...Array.from({ length: 10 }, () => refreshBlockchainOrder(deps, row)),
      ...Array.from({ length: 3 }, () => pollPendingBlockchainOrders(deps)),
      ...Array.from({ length: 10 }, () =>
        t.app.inject({ method: 'GET', url: `/api/blockchain/orders/${order.id}/status`, headers }),
      ),
    ]);

    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ amount: 3_600_000, idempotencyKey: `blockchain:${order.orderNo}` });
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(true);
    expect((await repo.anyByNo(order.orderNo))?.status).toBe('CONFIRMED');
  });

  it('lets one transaction back one order when submitted concurrently', async () => {
    const txHash = hash();
    const users = await Promise.all(Array.from({ length: 8 }, () => t.createUser()));
    const answers = await Promise.all(
      users.map(({ headers }) =>
        t.app.inject({
          method: 'POST',
          url: '/api/blockchain/orders',
          headers,
          payload: { chain: 'TRON', currency: 'USDT', amount: '10', txHash },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });
});
