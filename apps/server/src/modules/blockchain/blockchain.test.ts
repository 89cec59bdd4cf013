import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { reconcileAccount } from '../ledger/ledger.ts';
import { userNotices } from '../notices/notices.tables.ts';
import { startFakeAlipayGateway } from '../payments/drivers/alipay/fake-alipay-gateway.ts';
import { BLOCKCHAIN_ORDER_TTL_MS, MAX_PENDING_BLOCKCHAIN_ORDERS } from './blockchain.models.ts';
import { createBlockchainRepository } from './blockchain.repository.ts';
import { pollPendingBlockchainOrders } from './blockchain.usecases.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
type H = Record<string, string>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;

beforeAll(async () => {
  // The simulated chain is on only where its own setting names it (issue 26).
  t = await createTestApp({ clock, demo: false, config: { CHAIN_PROVIDER: 'simulated' } });
});
afterAll(() => t.close());

const hash = () => `0x${randomBytes(32).toString('hex')}`;
const call = (method: 'GET' | 'POST', url: string, headers: H, payload?: object) =>
  t.app.inject({ method, url, headers, payload });
async function create(headers: H, over: object = {}) {
  const res = await call('POST', '/api/blockchain/orders', headers, {
    chain: 'TRON',
    currency: 'USDT',
    amount: '100',
    txHash: hash(),
    ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const balance = async (headers: H) => (await call('GET', '/api/user/balance', headers)).json().data.available;
/** The simulated chain's page decides, as a browser form post would. */
const decide = (orderNo: string, result: 'CONFIRMED' | 'FAILED') =>
  t.app.inject({
    method: 'POST',
    url: `/api/blockchain/simulated/${orderNo}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `result=${result}`,
  });

describe('blockchain orders', () => {
  it('creates a pending order and finds it by number, id and hash', async () => {
    const { headers } = await t.createUser();
    const txHash = hash();
    const order = await create(headers, { amount: '12.5', txHash: txHash.toUpperCase().replace('0X', '0x') });
    expect(order).toMatchObject({
      status: 'PENDING',
      amount: '12.5',
      // 12.5 × 7.2 = 90 yuan
      creditAmount: 90,
      txHash: txHash.slice(2),
      confirmations: 0,
    });
    expect(order.orderNo).toMatch(/^BC\d{14}[0-9A-F]{12}$/);
    expect(order.simulatedConfirmUrl).toContain(`/api/blockchain/simulated/${order.orderNo}`);
    for (const url of [
      `/api/blockchain/orders/by-no/${order.orderNo}`,
      `/api/blockchain/orders/by-id/${order.id}`,
      `/api/blockchain/orders/tx/${txHash}`,
    ]) {
      const res = await call('GET', url, headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().data.id).toBe(order.id);
    }
    // Another user sees none of it.
    const other = (await t.createUser()).headers;
    expect((await call('GET', `/api/blockchain/orders/by-id/${order.id}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/blockchain/orders/${order.id}/status`, other)).statusCode).toBe(404);
    const batch = await call('POST', '/api/blockchain/orders/status/batch', other, {
      orderNos: [order.orderNo],
    });
    expect(batch.json().data).toEqual([]);
  });

  it('refuses a transaction already used, bad input, and strangers', async () => {
    const { headers } = await t.createUser();
    const txHash = hash();
    await create(headers, { txHash });
    const again = await call('POST', '/api/blockchain/orders', (await t.createUser()).headers, {
      chain: 'TRON',
      currency: 'USDT',
      amount: '5',
      txHash: txHash.slice(2),
    });
    expect(again.statusCode).toBe(409);
    for (const bad of [
      { amount: '0.5' },
      { amount: '1.1234567' },
      { amount: 'abc' },
      { amount: '100001' },
      { txHash: '0x1234' },
      { chain: 'BTC' },
      { currency: 'ETH' },
    ]) {
      const res = await call('POST', '/api/blockchain/orders', headers, {
        chain: 'TRON',
        currency: 'USDT',
        amount: '10',
        txHash: hash(),
        ...bad,
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/blockchain/user/orders' })).statusCode).toBe(401);
  });

  it('credits the balance once when the chain confirms, through the ledger', async () => {
    const { user, headers } = await t.createUser();
    const order = await create(headers, { amount: '100' });
    const status = async () =>
      (await call('GET', `/api/blockchain/orders/${order.id}/status`, headers)).json().data;
    expect(await status()).toMatchObject({ orderNo: order.orderNo, status: 'PENDING' });

    expect((await decide(order.orderNo, 'CONFIRMED')).body).toContain('交易已确认');
    expect(await status()).toMatchObject({ status: 'CONFIRMED' });
    expect(await balance(headers)).toBe(720);
    // Repeats of every path change nothing.
    await decide(order.orderNo, 'CONFIRMED');
    await decide(order.orderNo, 'FAILED');
    await pollPendingBlockchainOrders(t.app.deps.modules.blockchain);
    await status();
    expect(await balance(headers)).toBe(720);
    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(entries).toHaveLength(1);
    // The owner is told once (issue 31).
    const told = await t.db.select().from(userNotices).where(eq(userNotices.userId, user.id));
    expect(told.map((n) => [n.event, n.body])).toEqual([
      ['recharge_succeeded', `区块链充值订单 ${order.orderNo} 已到账 ¥720.00。`],
    ]);
    expect(entries[0]).toMatchObject({
      kind: 'recharge',
      amount: 7_200_000,
      idempotencyKey: `blockchain:${order.orderNo}`,
      referenceType: 'blockchain_order',
    });
    expect((await reconcileAccount(t.db, user.id)).balanced).toBe(true);

    const stats = (await call('GET', '/api/blockchain/user/orders/stats', headers)).json().data;
    expect(stats).toEqual({ total: 1, pending: 0, confirmed: 1, failed: 0, creditedAmount: 720 });
    const list = (await call('GET', '/api/blockchain/user/orders?page=1&size=10', headers)).json().data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ status: 'CONFIRMED', simulatedConfirmUrl: null });
  });

  it('confirms through the poll task, fails reverted and stale orders, credits nothing for them', async () => {
    const { user } = await t.createUser();
    let headers: H = (await t.createUser()).headers;
    // Sign-ins expire across the day this test skips: a fresh token of `user` for each step.
    const signIn = async () => {
      headers = { authorization: `Bearer ${await t.userToken(user)}`, 'x-tenant-host': 'localhost' };
    };
    await signIn();
    const deps = t.app.deps.modules.blockchain;
    const viaPoll = await create(headers, { amount: '10' });
    const reverted = await create(headers, { amount: '20' });
    const stale = await create(headers, { amount: '30' });
    // The page decides on the chain only; the poll applies it.
    const repo = createBlockchainRepository({ db: t.db });
    const row = await repo.anyByNo(viaPoll.orderNo);
    if (!row) throw new Error('order missing');
    await repo.putSimulatedTx({ ...row, status: 'CONFIRMED' });
    expect((await decide(reverted.orderNo, 'FAILED')).body).toContain('交易失败');
    clock.advance(10_000);
    expect(await pollPendingBlockchainOrders(deps)).toMatchObject({ confirmed: 1 });
    expect(await balance(headers)).toBe(72);
    clock.advance(BLOCKCHAIN_ORDER_TTL_MS);
    await pollPendingBlockchainOrders(deps);
    await signIn();
    const batch = await call('POST', '/api/blockchain/orders/status/batch', headers, {
      orderNos: [viaPoll.orderNo, reverted.orderNo, stale.orderNo, 'BC00000000000000FFFFFFFFFFFF'],
    });
    const byNo = Object.fromEntries(
      batch.json().data.map((s: { orderNo: string; status: string }) => [s.orderNo, s.status]),
    );
    expect(byNo).toEqual({
      [viaPoll.orderNo]: 'CONFIRMED',
      [reverted.orderNo]: 'FAILED',
      [stale.orderNo]: 'FAILED',
    });
    expect(
      (await call('GET', `/api/blockchain/orders/by-no/${stale.orderNo}`, headers)).json().data.failReason,
    ).toBe('超时未确认');
    expect(await balance(headers)).toBe(72);
  });

  it(`limits a user to ${MAX_PENDING_BLOCKCHAIN_ORDERS} pending orders`, async () => {
    const { headers } = await t.createUser();
    for (let i = 0; i < MAX_PENDING_BLOCKCHAIN_ORDERS; i++) await create(headers);
    const res = await call('POST', '/api/blockchain/orders', headers, {
      chain: 'TRON',
      currency: 'USDT',
      amount: '1',
      txHash: hash(),
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('the simulated chain exists only where CHAIN_PROVIDER names it (issue 26)', () => {
  it('outside production with real payments and no CHAIN_PROVIDER: no confirm page, one POST credits nothing', async () => {
    const alipay = await startFakeAlipayGateway();
    const dev = await createTestApp({ demo: false, config: { NODE_ENV: 'development', ...alipay.config } });
    try {
      const { headers } = await dev.createUser();
      const res = await dev.app.inject({
        method: 'POST',
        url: '/api/blockchain/orders',
        headers,
        payload: { chain: 'TRON', currency: 'USDT', amount: '100', txHash: hash() },
      });
      expect(res.statusCode, res.body).toBe(200);
      const order = res.json().data;
      expect(order.simulatedConfirmUrl).toBeNull();
      const forged = await dev.app.inject({
        method: 'POST',
        url: `/api/blockchain/simulated/${order.orderNo}`,
        payload: { result: 'CONFIRMED' },
      });
      expect(forged.statusCode).toBe(404);
      const balanceRes = await dev.app.inject({ method: 'GET', url: '/api/user/balance', headers });
      expect(balanceRes.json().data.available).toBe(0);
      const status = await dev.app.inject({
        method: 'GET',
        url: `/api/blockchain/orders/${order.id}/status`,
        headers,
      });
      expect(status.json().data.status).toBe('PENDING');
    } finally {
      await dev.close();
      await alipay.close();
    }
  });
});
