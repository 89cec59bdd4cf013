import { describe, expect, it } from 'vitest';
import { enquiryFieldErrors, enquiryRequestSchema, enquiryMessages as m } from './contact.ts';

const valid = { name: '张三', phone: '13800138000', product: 'GPU裸金属服务器', quantity: 1 };

describe('enquiry rules (SPEC.md §5)', () => {
  it('accepts a complete enquiry and leaves empty optional fields out', () => {
    const r = enquiryRequestSchema.parse({ ...valid, company: ' ', question: '' });
    expect(r).toEqual(valid);
  });

  it('names each missing required field with its message', () => {
    expect(enquiryFieldErrors({})).toEqual({
      name: m.nameRequired,
      phone: m.phoneRequired,
      product: m.productRequired,
      quantity: m.quantityRequired,
    });
    expect(enquiryFieldErrors({ ...valid, name: '   ', phone: '', product: '', quantity: '' })).toEqual({
      name: m.nameRequired,
      phone: m.phoneRequired,
      product: m.productRequired,
      quantity: m.quantityRequired,
    });
  });

  it.each([
    ['+86 138-0013-8000', true],
    ['010-12345678', true],
    ['12345', false],
    ['123456', true],
    ['+1 234 567 890', true],
    ['-12345678', false],
    ['abc12345678', false],
    ['1'.repeat(22), false],
    ['1'.repeat(21), true],
  ])('phone %s valid=%s', (phone, ok) => {
    expect(enquiryFieldErrors({ ...valid, phone }).phone).toBe(ok ? undefined : m.phoneInvalid);
  });

  it.each([
    [0, m.quantityRange],
    [101, m.quantityRange],
    [1.5, m.quantityRange],
    [-1, m.quantityRange],
    ['abc', m.quantityRequired],
    ['100', undefined],
    [100, undefined],
    [1, undefined],
  ])('quantity %s', (quantity, message) => {
    expect(enquiryFieldErrors({ ...valid, quantity }).quantity).toBe(message);
  });
});
