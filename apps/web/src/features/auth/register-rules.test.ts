import { describe, expect, it } from 'vitest';
import {
  type AvailabilityInput,
  canRegister,
  canSendRegisterCode,
  type PhoneAvailability,
  phoneAvailability,
  sendCodeLabel,
} from './register-rules';

const base: AvailabilityInput = {
  phoneValid: true,
  debouncing: false,
  fetching: false,
  failed: false,
  available: undefined,
};

describe('phone availability (SPEC.md §4 register states)', () => {
  it('is idle until the phone is valid, whatever an earlier check said', () => {
    expect(phoneAvailability({ ...base, phoneValid: false })).toBe('idle');
    expect(phoneAvailability({ ...base, phoneValid: false, available: true })).toBe('idle');
    expect(phoneAvailability({ ...base, phoneValid: false, failed: true })).toBe('idle');
  });

  it('is checking while the phone settles or the check runs (also over an old answer)', () => {
    expect(phoneAvailability({ ...base, debouncing: true })).toBe('checking');
    expect(phoneAvailability({ ...base, fetching: true })).toBe('checking');
    expect(phoneAvailability({ ...base, fetching: true, available: true })).toBe('checking');
    expect(phoneAvailability({ ...base, fetching: true, failed: true })).toBe('checking');
    expect(phoneAvailability(base)).toBe('checking');
  });

  it('is available or taken after the answer, unknown after a failed check', () => {
    expect(phoneAvailability({ ...base, available: true })).toBe('available');
    expect(phoneAvailability({ ...base, available: false })).toBe('taken');
    expect(phoneAvailability({ ...base, failed: true })).toBe('unknown');
  });
});

describe('send-code button', () => {
  const states: PhoneAvailability[] = ['idle', 'checking', 'available', 'taken', 'unknown'];

  it('is enabled only for an available phone, without cooldown, while not sending', () => {
    for (const availability of states) {
      for (const cooldownActive of [false, true]) {
        for (const sending of [false, true]) {
          expect(canSendRegisterCode({ availability, cooldownActive, sending })).toBe(
            availability === 'available' && !cooldownActive && !sending,
          );
        }
      }
    }
  });

  it('says sending, the seconds left, then resend', () => {
    const texts = {
      send: '获取验证码',
      sending: '发送中…',
      cooldown: (s: number) => `${s}秒后重新获取`,
      resend: '重新获取',
    };
    expect(sendCodeLabel({ sending: false, remaining: 0, sentBefore: false }, texts)).toBe('获取验证码');
    expect(sendCodeLabel({ sending: true, remaining: 0, sentBefore: false }, texts)).toBe('发送中…');
    expect(sendCodeLabel({ sending: false, remaining: 60, sentBefore: true }, texts)).toBe('60秒后重新获取');
    expect(sendCodeLabel({ sending: false, remaining: 0, sentBefore: true }, texts)).toBe('重新获取');
  });
});

describe('register button (SPEC.md §4)', () => {
  const full = {
    phone: '13800138000',
    verificationCode: '123456',
    password: 'Passw0rd',
    confirmPassword: 'Passw0rd',
    agreement: true,
  };

  it('is enabled when everything is filled, the phone available and the passwords equal', () => {
    expect(canRegister(full, 'available')).toBe(true);
  });

  it('is disabled when any required field is empty or blank', () => {
    for (const key of ['phone', 'verificationCode', 'password', 'confirmPassword'] as const) {
      expect(canRegister({ ...full, [key]: '' }, 'available')).toBe(false);
      expect(canRegister({ ...full, [key]: '  ' }, 'available')).toBe(false);
      expect(canRegister({ ...full, [key]: undefined }, 'available')).toBe(false);
    }
  });

  it('is disabled without the agreement', () => {
    expect(canRegister({ ...full, agreement: false }, 'available')).toBe(false);
    expect(canRegister({ ...full, agreement: undefined }, 'available')).toBe(false);
  });

  it('is disabled unless the phone is available', () => {
    for (const state of ['idle', 'checking', 'taken', 'unknown'] as const) {
      expect(canRegister(full, state)).toBe(false);
    }
  });

  it('is disabled when the passwords differ', () => {
    expect(canRegister({ ...full, confirmPassword: 'Passw0rd!' }, 'available')).toBe(false);
  });
});
