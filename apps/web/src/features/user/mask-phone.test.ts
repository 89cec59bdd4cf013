import { describe, expect, it } from 'vitest';
import { maskPhone } from './mask-phone';

describe('maskPhone', () => {
  it('keeps the first three and last four digits', () => {
    expect(maskPhone('13800138000')).toBe('138****8000');
  });
  it('shows nothing of what is not a phone', () => {
    expect(maskPhone('')).toBe('-');
    expect(maskPhone(null)).toBe('-');
    expect(maskPhone('1380013800')).toBe('-');
  });
});
