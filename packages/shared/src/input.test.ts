import { describe, expect, it } from 'vitest';
import { dateOrTimeSchema, dateSchema, idSchema, textSchema } from './input.ts';
import { createQrCodeRequestSchema, rechargeAmountTextSchema } from './payments.ts';

describe('shared input schemas', () => {
  it('ids are decimal integers only', () => {
    const id = idSchema();
    for (const ok of ['14', '1', 14, '2147483647']) expect(id.safeParse(ok).success, String(ok)).toBe(true);
    expect(id.parse('14')).toBe(14);
    for (const bad of [
      '0x10',
      '14e0',
      '1e2',
      ' 1',
      '+1',
      '-1',
      '0',
      '1.0',
      '',
      '2147483648',
      1.5,
      ['1'],
      null,
      true,
    ])
      expect(id.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('dates are real calendar days', () => {
    expect(dateSchema.safeParse('2028-02-29').success).toBe(true);
    for (const bad of ['2026-13-45', '2026-02-30', '2026-2-1', '20260101'])
      expect(dateSchema.safeParse(bad).success, bad).toBe(false);
    expect(dateOrTimeSchema.safeParse('2026-01-01T00:00:00+08:00').success).toBe(true);
    expect(dateOrTimeSchema.safeParse('2026-13-45').success).toBe(false);
  });

  it('strings refuse control characters but keep line breaks', () => {
    expect(textSchema().safeParse('a\u0000b').success).toBe(false);
    expect(textSchema().safeParse('a\u001bb').success).toBe(false);
    expect(textSchema().safeParse('line\nline\ttab').success).toBe(true);
  });

  it('amounts: numbers in JSON bodies, decimal digits in text', () => {
    expect(createQrCodeRequestSchema.safeParse({ amount: '1e2' }).success).toBe(false);
    expect(createQrCodeRequestSchema.safeParse({ amount: '500' }).success).toBe(false);
    expect(createQrCodeRequestSchema.safeParse({ amount: 500 }).success).toBe(true);
    expect(rechargeAmountTextSchema.parse('500')).toBe(500);
    for (const bad of ['1e3', '0x100', '500abc'])
      expect(rechargeAmountTextSchema.safeParse(bad).success).toBe(false);
  });
});
