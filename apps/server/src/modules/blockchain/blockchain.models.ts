import { randomBytes } from 'node:crypto';
import {
  type BlockchainNetwork,
  type BlockchainOrder,
  CHAIN_AMOUNT_MIN,
  CHAIN_CONFIRMATIONS,
  CHAIN_CURRENCIES,
  CHAIN_LABELS,
  CHAINS,
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

/**
 * Demo receiving addresses, used only outside production when none is configured: well-known
 * burn addresses (TRON's black hole, Ethereum's 0x…dEaD), which nobody controls, so a test
 * transfer to one can never be mistaken for a payment to us. The page marks them as demo.
 */
export const DEMO_CHAIN_ADDRESSES: Record<Chain, string> = {
  TRON: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  ETHEREUM: '0x000000000000000000000000000000000000dEaD',
};

export interface ReceivingSettings {
  CHAIN_TRON_ADDRESS?: string | undefined;
  CHAIN_ETHEREUM_ADDRESS?: string | undefined;
  isProduction: boolean;
}

/**
 * Where to pay on each network: the configured address; else, outside production, the demo
 * address (flagged); else (production) none, and the network takes no orders.
 */
export function receivingNetworks(settings: ReceivingSettings): BlockchainNetwork[] {
  const configured: Record<Chain, string | undefined> = {
    TRON: settings.CHAIN_TRON_ADDRESS,
    ETHEREUM: settings.CHAIN_ETHEREUM_ADDRESS,
  };
  return CHAINS.map((chain) => {
    const own = configured[chain];
    const demo = !own && !settings.isProduction;
    return {
      chain,
      label: CHAIN_LABELS[chain],
      currencies: [...CHAIN_CURRENCIES],
      address: own ?? (demo ? DEMO_CHAIN_ADDRESSES[chain] : null),
      demo,
      minAmount: CHAIN_AMOUNT_MIN,
      confirmations: CHAIN_CONFIRMATIONS[chain],
    };
  });
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
