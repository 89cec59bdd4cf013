import {
  type BlockchainOrder,
  type BlockchainOrderCreate,
  type BlockchainStats,
  type BlockchainStatus,
  chainAmountToMicro,
  formatMoney,
  normalizeTxHash,
  type Page,
  unitsToYuan,
} from '@gpu/shared';
import { postLedgerEntry } from '../ledger/index.ts';
import { createNoticesRepository } from '../notices/index.ts';
import type { BlockchainDeps } from './blockchain.deps.ts';
import { blockchainErrors } from './blockchain.errors.ts';
import {
  BLOCKCHAIN_ORDER_TTL_MS,
  CHAIN_QUERY_INTERVAL_MS,
  creditFor,
  MAX_PENDING_BLOCKCHAIN_ORDERS,
  newBlockchainOrderNo,
  toBlockchainOrder,
} from './blockchain.models.ts';
import { type BlockchainOrderRow, createBlockchainRepository } from './blockchain.repository.ts';
import { ChainProviderError, type ChainTxState } from './drivers/chain-driver.ts';

const view = (deps: BlockchainDeps, r: BlockchainOrderRow) => toBlockchainOrder(r, deps.confirmUrl);

/** Records a payment the user made on chain; it stays PENDING until the chain driver confirms it. */
export async function createBlockchainOrder(
  deps: BlockchainDeps,
  user: { id: number; tenantId: number },
  input: BlockchainOrderCreate,
): Promise<BlockchainOrder> {
  // A network without a receiving address (production, not configured) takes no orders.
  if (!deps.networks.find((n) => n.chain === input.chain)?.address) throw blockchainErrors.networkClosed();
  const repo = createBlockchainRepository(deps);
  if ((await repo.countPending(user.id)) >= MAX_PENDING_BLOCKCHAIN_ORDERS)
    throw blockchainErrors.tooManyPending(MAX_PENDING_BLOCKCHAIN_ORDERS);
  const amountMicro = chainAmountToMicro(input.amount) as number;
  const now = deps.now();
  const row = await repo.insert({
    orderNo: newBlockchainOrderNo(now),
    tenantId: user.tenantId,
    userId: user.id,
    chain: input.chain,
    currency: input.currency,
    amountMicro,
    creditAmount: creditFor(amountMicro),
    txHash: normalizeTxHash(input.txHash),
    createdAt: now,
    updatedAt: now,
  });
  if (!row) throw blockchainErrors.txUsed();
  return view(deps, row);
}

/**
 * Asks the chain about one pending order and applies the answer. The driver call runs outside any
 * transaction; the order is then locked and re-read, so of two concurrent confirmations (poll and
 * status call, two replicas) the second finds it CONFIRMED and does nothing. The ledger key
 * `blockchain:<orderNo>` backs that up: the credit happens at most once either way.
 */
export async function refreshBlockchainOrder(deps: BlockchainDeps, order: BlockchainOrderRow) {
  if (order.status !== 'PENDING') return order.status;
  let state: ChainTxState;
  try {
    state = await deps.chain.lookup({
      chain: order.chain as never,
      txHash: order.txHash,
      currency: order.currency as never,
    });
  } catch (err) {
    if (!(err instanceof ChainProviderError)) throw err;
    deps.log.warn({ err, orderNo: order.orderNo }, 'chain lookup failed; the order stays pending');
    return order.status;
  }
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const repo = createBlockchainRepository({ db: tx });
    const current = await repo.lockById(order.id);
    if (current?.status !== 'PENDING') return current?.status ?? order.status;
    if (state.status === 'CONFIRMED') {
      if (state.currency !== current.currency || state.amountMicro < current.amountMicro) {
        await repo.update(current.id, {
          status: 'FAILED',
          failReason: '链上金额或币种与订单不符',
          checkedAt: now,
        });
        return 'FAILED';
      }
      await repo.update(current.id, {
        status: 'CONFIRMED',
        confirmations: state.confirmations,
        confirmedAt: now,
        checkedAt: now,
      });
      // Order row before the account row (ledger.ts lock order).
      await postLedgerEntry(tx, {
        userId: current.userId,
        kind: 'recharge',
        amount: current.creditAmount,
        idempotencyKey: `blockchain:${current.orderNo}`,
        reference: { type: 'blockchain_order', id: current.id },
        memo: `区块链充值 ${current.currency} ${current.chain}`,
        at: now,
      });
      await createNoticesRepository({ db: tx }).notify({
        userId: current.userId,
        event: 'recharge_succeeded',
        title: '充值成功',
        body: `区块链充值订单 ${current.orderNo} 已到账 ${formatMoney(unitsToYuan(current.creditAmount))}。`,
        dedupeKey: `recharge_succeeded:${current.orderNo}`,
        params: { orderNo: current.orderNo, amount: unitsToYuan(current.creditAmount) },
      });
      return 'CONFIRMED';
    }
    if (state.status === 'FAILED') {
      await repo.update(current.id, { status: 'FAILED', failReason: state.reason, checkedAt: now });
      return 'FAILED';
    }
    if (now.getTime() - current.createdAt.getTime() >= BLOCKCHAIN_ORDER_TTL_MS) {
      await repo.update(current.id, { status: 'FAILED', failReason: '超时未确认', checkedAt: now });
      return 'FAILED';
    }
    await repo.update(current.id, {
      checkedAt: now,
      confirmations: state.status === 'PENDING' ? state.confirmations : 0,
    });
    return 'PENDING';
  });
}

/** The poll task: pending orders least recently checked first, one at a time. */
export async function pollPendingBlockchainOrders(deps: BlockchainDeps, limit = 50) {
  const now = deps.now();
  const orders = await createBlockchainRepository(deps).pending(
    new Date(now.getTime() - CHAIN_QUERY_INTERVAL_MS),
    limit,
  );
  let confirmed = 0;
  for (const order of orders) if ((await refreshBlockchainOrder(deps, order)) === 'CONFIRMED') confirmed++;
  return { checked: orders.length, confirmed };
}

export async function listBlockchainOrders(
  deps: BlockchainDeps,
  userId: number,
  q: { page: number; size: number },
): Promise<Page<BlockchainOrder>> {
  const { rows, total } = await createBlockchainRepository(deps).list(userId, q);
  return { list: rows.map((r) => view(deps, r)), total, page: q.page, size: q.size };
}

export async function blockchainStats(deps: BlockchainDeps, userId: number): Promise<BlockchainStats> {
  const s = await createBlockchainRepository(deps).stats(userId);
  return {
    total: s?.total ?? 0,
    pending: s?.pending ?? 0,
    confirmed: s?.confirmed ?? 0,
    failed: s?.failed ?? 0,
    creditedAmount: unitsToYuan(Number(s?.credited ?? 0)),
  };
}

type Lookup = { by: 'no'; no: string } | { by: 'id'; id: number } | { by: 'tx'; hash: string };
export async function findBlockchainOrder(deps: BlockchainDeps, userId: number, l: Lookup) {
  const repo = createBlockchainRepository(deps);
  const row =
    l.by === 'no'
      ? await repo.byNo(userId, l.no)
      : l.by === 'id'
        ? await repo.byId(userId, l.id)
        : await repo.byTx(userId, normalizeTxHash(l.hash));
  if (!row) throw blockchainErrors.notFound();
  return view(deps, row);
}

/** An order's status; a pending one is asked about first (at most every few seconds). */
export async function blockchainOrderStatus(
  deps: BlockchainDeps,
  userId: number,
  id: number,
): Promise<BlockchainStatus> {
  const repo = createBlockchainRepository(deps);
  const row = await repo.byId(userId, id);
  if (!row) throw blockchainErrors.notFound();
  const fresh = row.checkedAt && deps.now().getTime() - row.checkedAt.getTime() < CHAIN_QUERY_INTERVAL_MS;
  const status = row.status === 'PENDING' && !fresh ? await refreshBlockchainOrder(deps, row) : row.status;
  return { id: row.id, orderNo: row.orderNo, status: status as BlockchainStatus['status'] };
}

/** Statuses of the user's orders among `orderNos` (others' and unknown numbers are left out). */
export async function blockchainBatchStatus(deps: BlockchainDeps, userId: number, orderNos: string[]) {
  const rows = await createBlockchainRepository(deps).byNos(userId, [...new Set(orderNos)]);
  return rows.map((r) => ({ ...r, status: r.status as BlockchainStatus['status'] }));
}
