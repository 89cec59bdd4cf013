import { RECHARGE_PRESETS } from '@gpu/shared/constants';
import { isRechargeInputKey, rechargeMessages, sanitizeRechargeInput } from '@gpu/shared/payments';
import { describe, expect, it } from 'vitest';
import { canSubmit, customAmountError, formAmount, INITIAL_FORM, isComplete } from './recharge-form';

const form = (patch: Partial<typeof INITIAL_FORM>) => ({ ...INITIAL_FORM, ...patch });

describe('recharge form', () => {
  it('starts with no amount (button disabled) and Alipay chosen', () => {
    expect(formAmount(INITIAL_FORM)).toBe(0);
    expect(canSubmit(INITIAL_FORM)).toBe(false);
    expect(INITIAL_FORM.method).toBe('alipay');
    expect(RECHARGE_PRESETS).toEqual([200, 500, 1000, 5000, 10000]);
  });

  it('takes a preset before the typed amount', () => {
    const f = form({ preset: 500, custom: '50' });
    expect(formAmount(f)).toBe(500);
    expect(customAmountError(f)).toBeNull();
    expect(isComplete(f)).toBe(true);
  });

  it('gives the shared messages for the other amount', () => {
    expect(customAmountError(form({ custom: '' }))).toBe(rechargeMessages.amountInvalid);
    expect(customAmountError(form({ custom: '50' }))).toBe(rechargeMessages.amountMin);
    expect(customAmountError(form({ custom: '100001' }))).toBe(rechargeMessages.amountMax);
    expect(customAmountError(form({ custom: '100.5' }))).toBe(rechargeMessages.amountInteger);
    expect(customAmountError(form({ custom: '100' }))).toBeNull();
    expect(customAmountError(form({ custom: '100000' }))).toBeNull();
  });

  it('enables the button for any non-zero amount with a method, but only a valid one is complete', () => {
    expect(canSubmit(form({ custom: '50' }))).toBe(true);
    expect(isComplete(form({ custom: '50' }))).toBe(false);
    expect(canSubmit(form({ custom: '0' }))).toBe(false);
    expect(canSubmit(form({ preset: 200, method: null }))).toBe(false);
    expect(isComplete(form({ custom: '300' }))).toBe(true);
  });

  it('accepts only digits and control keys; 1.5 becomes 15', () => {
    expect(isRechargeInputKey('5')).toBe(true);
    expect(isRechargeInputKey('Backspace')).toBe(true);
    expect(isRechargeInputKey('.')).toBe(false);
    expect(isRechargeInputKey('e')).toBe(false);
    expect(isRechargeInputKey('-')).toBe(false);
    expect(sanitizeRechargeInput('1.5')).toBe('15');
  });
});
