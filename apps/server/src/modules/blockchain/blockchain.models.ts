import { randomBytes } from 'node:crypto';
import {
  type BlockchainOrder,
  type Chain,
  type ChainCurrency,
  microToChainAmount,
  USD_CNY_TENTHS,
  unitsToYuan,
} from '@gpu/shared';
import { formatTime } from '@gpu/shared/time';
import type { BlockchainOrderRow } from './blockchain.repository.ts';

/**
 * Yuan units credited per micro unit of a stablecoin: 1 USDT/USDC = USD_CNY_TENTHS / 10 yuan,
 * fixed and applied when the order is made (docs/decisions.md: a real deployment takes its rate from a price feed).
 */
export function creditFor(amountMicro: number): number {
  // micro (1e-6 coin) × 7.2 → units (1e-4 yuan) = micro × 72 / 1000, rounded down to whole cents
  // (100 units); integers only (at most 1e11 × 72, far below 2^53).
  return Math.floor((amountMicro * USD_CNY_TENTHS) / 100_000) * 100;
}

/** A user may have this many orders waiting for the chain. */
export const MAX_PENDING_BLOCKCHAIN_ORDERS = 5;
/** An order the chain never confirms fails after this long. */
export const BLOCKCHAIN_ORDER_TTL_MS = 24 * 3600_000;
/** A status call asks the driver about one order at most this often. */
export const CHAIN_QUERY_INTERVAL_MS = 5_000;

export function newBlockchainOrderNo(now: Date): string {
  const stamp = formatTime(now).replace(/\D/g, '');
  return `BC${stamp}${randomBytes(6).toString('hex').toUpperCase()}`;
}

export function toBlockchainOrder(
  r: BlockchainOrderRow,
  confirmUrl: ((no: string) => string) | null,
): BlockchainOrder {
  return {
    id: r.id,
    orderNo: r.orderNo,
    chain: r.chain as Chain,
    currency: r.currency as ChainCurrency,
    amount: microToChainAmount(r.amountMicro),
    creditAmount: unitsToYuan(r.creditAmount),
    txHash: r.txHash,
    status: r.status as BlockchainOrder['status'],
    failReason: r.failReason,
    confirmations: r.confirmations,
    createdAt: r.createdAt.toISOString(),
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
    simulatedConfirmUrl: confirmUrl && r.status === 'PENDING' ? confirmUrl(r.orderNo) : null,
  };
}
