import { describe, expect, it } from 'vitest';
import {
  blockchainOrderCreateSchema,
  chainAmountToMicro,
  microToChainAmount,
  normalizeTxHash,
} from './blockchain.ts';

describe('chain amounts', () => {
  it.each([
    ['1', 1_000_000],
    ['12.5', 12_500_000],
    ['0.000001', 1],
    [' 100.10 ', 100_100_000],
    ['1.1234567', null],
    ['1e3', null],
    ['-1', null],
    ['', null],
  ])('%s → %s micro', (text, micro) => {
    expect(chainAmountToMicro(text)).toBe(micro);
  });

  it('prints micro units back without trailing zeros', () => {
    expect(microToChainAmount(12_500_000)).toBe('12.5');
    expect(microToChainAmount(100_000_000)).toBe('100');
    expect(microToChainAmount(1)).toBe('0.000001');
  });
});

describe('blockchain order rules', () => {
  const valid = { chain: 'TRON', currency: 'USDT', amount: '10', txHash: `0x${'a'.repeat(64)}` };
  it('accepts a hash with or without 0x, in any case, and compares it in lower case', () => {
    expect(blockchainOrderCreateSchema.safeParse(valid).success).toBe(true);
    expect(blockchainOrderCreateSchema.safeParse({ ...valid, txHash: 'A'.repeat(64) }).success).toBe(true);
    expect(normalizeTxHash(`0X${'AB'.repeat(32)}`)).toBe('ab'.repeat(32));
  });

  it.each([
    [{ amount: '0.99' }, '金额必须在1-100000之间'],
    [{ amount: '100000.000001' }, '金额必须在1-100000之间'],
    [{ amount: 'x' }, '请输入有效的金额（最多6位小数）'],
    [{ txHash: 'a'.repeat(63) }, '请输入有效的交易哈希'],
    [{ chain: 'BTC' }, '请选择区块链网络'],
    [{ currency: 'ETH' }, '请选择币种'],
  ])('%o: %s', (over, message) => {
    const r = blockchainOrderCreateSchema.safeParse({ ...valid, ...over });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(message);
  });
});
