import { z } from 'zod';
import { idSchema, textSchema } from './input.ts';

/** Blockchain orders (SPEC.md §7 Blockchain): a payment made on chain, credited once confirmed. */
export const CHAINS = ['TRON', 'ETHEREUM'] as const;
export type Chain = (typeof CHAINS)[number];
export const CHAIN_LABELS: Record<Chain, string> = { TRON: 'TRON (TRC-20)', ETHEREUM: 'Ethereum (ERC-20)' };
export const CHAIN_CURRENCIES = ['USDT', 'USDC'] as const;
export type ChainCurrency = (typeof CHAIN_CURRENCIES)[number];
export const BLOCKCHAIN_ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED'] as const;
export type BlockchainOrderStatus = (typeof BLOCKCHAIN_ORDER_STATUSES)[number];
export const BLOCKCHAIN_STATUS_LABELS: Record<BlockchainOrderStatus, string> = {
  PENDING: '待确认',
  CONFIRMED: '已确认',
  FAILED: '失败',
};

/** Stablecoins carry 6 decimals on both chains: amounts travel as decimal strings, stored in micro units. */
export const CHAIN_AMOUNT_DECIMALS = 6;
export const CHAIN_AMOUNT_MIN = 1;
export const CHAIN_AMOUNT_MAX = 100_000;

export const blockchainMessages = {
  chainInvalid: '请选择区块链网络',
  currencyInvalid: '请选择币种',
  amountInvalid: '请输入有效的金额（最多6位小数）',
  amountRange: `金额必须在${CHAIN_AMOUNT_MIN}-${CHAIN_AMOUNT_MAX}之间`,
  txHashInvalid: '请输入有效的交易哈希',
} as const;

/** A decimal string ("12.5") to micro units without floating point; null if malformed. */
export function chainAmountToMicro(value: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? '').padEnd(6, '0'));
}
export function microToChainAmount(micro: number): string {
  const whole = Math.floor(micro / 1_000_000);
  const frac = String(micro % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** TRON: 64 hex; Ethereum: 0x + 64 hex (either accepted with or without 0x, compared in lower case). */
export const TX_HASH_PATTERN = /^(0x)?[0-9a-fA-F]{64}$/;
export const normalizeTxHash = (hash: string) => hash.trim().toLowerCase().replace(/^0x/, '');

export const blockchainOrderCreateSchema = z.object({
  chain: z.enum(CHAINS, { message: blockchainMessages.chainInvalid }),
  currency: z.enum(CHAIN_CURRENCIES, { message: blockchainMessages.currencyInvalid }),
  amount: textSchema(blockchainMessages.amountInvalid)
    .trim()
    .refine((v) => chainAmountToMicro(v) !== null, blockchainMessages.amountInvalid)
    .refine((v) => {
      const micro = chainAmountToMicro(v) ?? 0;
      return micro >= CHAIN_AMOUNT_MIN * 1e6 && micro <= CHAIN_AMOUNT_MAX * 1e6;
    }, blockchainMessages.amountRange),
  txHash: textSchema(blockchainMessages.txHashInvalid)
    .trim()
    .regex(TX_HASH_PATTERN, blockchainMessages.txHashInvalid),
});
export type BlockchainOrderCreate = z.infer<typeof blockchainOrderCreateSchema>;

export const blockchainOrderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  chain: z.enum(CHAINS),
  currency: z.enum(CHAIN_CURRENCIES),
  /** On-chain amount as a decimal string. */
  amount: z.string(),
  /** What the balance is credited on confirmation, in yuan (like every amount on the wire). */
  creditAmount: z.number(),
  txHash: z.string(),
  status: z.enum(BLOCKCHAIN_ORDER_STATUSES),
  failReason: z.string().nullable(),
  confirmations: z.number().int(),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  /** The simulated chain's confirm page while pending (only with the simulated driver). */
  simulatedConfirmUrl: z.string().nullable(),
});
export type BlockchainOrder = z.infer<typeof blockchainOrderSchema>;

export const blockchainStatsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  confirmed: z.number().int(),
  failed: z.number().int(),
  /** Sum credited by confirmed orders, in yuan. */
  creditedAmount: z.number(),
});
export type BlockchainStats = z.infer<typeof blockchainStatsSchema>;

export const blockchainStatusSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  status: z.enum(BLOCKCHAIN_ORDER_STATUSES),
});
export type BlockchainStatus = z.infer<typeof blockchainStatusSchema>;

export const blockchainListQuerySchema = z.object({
  // SPEC §7 names page and size; pages count from 1 like every other list here.
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(100, '每页最多100条').default(10),
});

export const ORDER_NO_PATTERN = /^BC\d{14}[0-9A-F]{12}$/;
const orderNoSchema = textSchema('订单号无效').trim().max(40, '订单号无效');
export const blockchainOrderNoParams = z.object({ no: orderNoSchema });
export const blockchainIdParams = z.object({ id: idSchema('订单编号无效') });
export const blockchainTxParams = z.object({
  hash: textSchema(blockchainMessages.txHashInvalid)
    .trim()
    .regex(TX_HASH_PATTERN, blockchainMessages.txHashInvalid),
});
export const blockchainBatchStatusSchema = z.object({
  orderNos: z
    .array(orderNoSchema, { message: '参数 orderNos 无效' })
    .min(1, '请提供订单号')
    .max(50, '最多查询50个订单'),
});

/**
 * Confirmations a transfer needs before it is credited (what a real chain driver must wait for):
 * TRON's 19 block producers' solidification, Ethereum's customary 12 blocks.
 */
export const CHAIN_CONFIRMATIONS: Record<Chain, number> = { TRON: 19, ETHEREUM: 12 };

/** Receiving-address formats: TRON base58 (T + 33), Ethereum 0x + 40 hex. */
export const CHAIN_ADDRESS_PATTERNS: Record<Chain, RegExp> = {
  TRON: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ETHEREUM: /^0x[0-9a-fA-F]{40}$/,
};

/** GET /blockchain/networks: where to pay on each network. */
export const blockchainNetworkSchema = z.object({
  chain: z.enum(CHAINS),
  label: z.string(),
  currencies: z.array(z.enum(CHAIN_CURRENCIES)),
  /** Our receiving address on this network; null: not configured (the network takes no orders). */
  address: z.string().nullable(),
  /** True for the built-in demo address outside production: never to receive real money. */
  demo: z.boolean(),
  /** Smallest transfer accepted, in coins. */
  minAmount: z.number(),
  confirmations: z.number().int(),
});
export type BlockchainNetwork = z.infer<typeof blockchainNetworkSchema>;
