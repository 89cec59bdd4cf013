import type { Chain, ChainCurrency } from '@gpu/shared';

/** Where confirmations come from (DESIGN §2: one driver per external dependency). */
export type ChainDriverKind = 'simulated' | 'rpc';

export interface ChainTxQuery {
  chain: Chain;
  /** Lower case, without 0x. */
  txHash: string;
  currency: ChainCurrency;
}

/** What the chain says about one transaction. */
export type ChainTxState =
  /** Final: the token transfer to our receiving address, with its amount in micro units. */
  | { status: 'CONFIRMED'; amountMicro: number; currency: ChainCurrency; confirmations: number }
  /** Seen but not final yet (too few confirmations). */
  | { status: 'PENDING'; confirmations: number }
  /** Reverted, or not a transfer of this currency to our address. */
  | { status: 'FAILED'; reason: string }
  /** Not (yet) known to the node. */
  | { status: 'NOT_FOUND' };

export interface ChainStatusDriver {
  readonly kind: ChainDriverKind;
  lookup(q: ChainTxQuery): Promise<ChainTxState>;
}

/** The node failed or answered something we cannot use; the order stays pending. */
export class ChainProviderError extends Error {}
