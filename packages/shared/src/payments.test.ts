import { describe, expect, it } from 'vitest';
import {
  createQrCodeRequestSchema,
  isRechargeInputKey,
  rechargeAmountError,
  rechargeBody,
  rechargeMessages,
  rechargeSubject,
  sanitizeRechargeInput,
} from './payments.ts';

describe('recharge amount rule (SPEC.md §5)', () => {
  it.each([
    [100, null],
    [200, null],
    [100000, null],
    ['500', null],
    [' 1000 ', null],
    ['', rechargeMessages.amountInvalid],
    ['abc', rechargeMessages.amountInvalid],
    [null, rechargeMessages.amountInvalid],
    [undefined, rechargeMessages.amountInvalid],
    [Number.NaN, rechargeMessages.amountInvalid],
    [Number.POSITIVE_INFINITY, rechargeMessages.amountInvalid],
    [true, rechargeMessages.amountInvalid],
    [0, rechargeMessages.amountMin],
    [99, rechargeMessages.amountMin],
    [99.99, rechargeMessages.amountMin],
    [-200, rechargeMessages.amountMin],
    [100001, rechargeMessages.amountMax],
    [1e12, rechargeMessages.amountMax],
    [150.5, rechargeMessages.amountInteger],
    [100.01, rechargeMessages.amountInteger],
  ])('%o → %s', (value, message) => {
    expect(rechargeAmountError(value)).toBe(message);
  });

  it('uses the messages of SPEC.md §8', () => {
    expect(rechargeMessages.amountMin).toBe('充值金额不能少于100元');
    expect(rechargeMessages.amountMax).toBe('充值金额不能超过100000元');
    expect(rechargeMessages.amountInteger).toBe('充值金额必须为整数');
  });

  it('fills the request defaults', () => {
    expect(createQrCodeRequestSchema.parse({ amount: 200 })).toEqual({
      amount: 200,
      subject: '测试商品',
      body: '测试商品描述',
      type: 'alipay',
    });
    expect(createQrCodeRequestSchema.safeParse({ amount: 200, type: 'wechat' }).success).toBe(false);
  });
});

describe('amount input filtering', () => {
  it('keeps digits only and drops leading zeros', () => {
    expect(sanitizeRechargeInput('00a1-2.5e3')).toBe('1253');
    expect(sanitizeRechargeInput('0')).toBe('0');
    expect(sanitizeRechargeInput('')).toBe('');
  });
  it('lets digits and control keys through', () => {
    for (const k of ['0', '9', 'Backspace', 'Delete', 'ArrowLeft', 'Tab'])
      expect(isRechargeInputKey(k)).toBe(true);
    for (const k of ['e', '.', '-', '+', ' ']) expect(isRechargeInputKey(k)).toBe(false);
    expect(isRechargeInputKey('v', true)).toBe(true);
  });
});

describe('recharge subject (what the Alipay bill shows)', () => {
  it('names the tenant and the amount with thousands separators and two decimals', () => {
    expect(rechargeSubject('算力云平台', 1000)).toBe('算力云平台 账户充值 ¥1,000.00');
    expect(rechargeSubject(' 星河算力 ', 1234567.5)).toBe('星河算力 账户充值 ¥1,234,567.50');
    expect(rechargeSubject('A', 0.01)).toBe('A 账户充值 ¥0.01');
    expect(rechargeBody('算力云平台')).toBe('算力云平台 账户余额充值');
  });
  it('stays within 128 characters whatever the tenant is called', () => {
    const subject = rechargeSubject('长'.repeat(300), 100000);
    expect(subject.length).toBe(128);
    expect(subject.endsWith(' 账户充值 ¥100,000.00')).toBe(true);
    expect(rechargeBody('长'.repeat(300)).length).toBeLessThanOrEqual(128);
  });
});
