import { authMessages, loginRequestSchema, registerRequestSchema } from '@gpu/shared/auth';
import { describe, expect, it } from 'vitest';
import { fieldError } from './form-rules';

const valid = {
  phone: '13800138000',
  verificationCode: '123456',
  password: 'Passw0rd',
  confirmPassword: 'Passw0rd',
  agreement: true,
};

describe('fieldError: the shared schemas decide each field', () => {
  it('gives the message of the field asked about only', () => {
    const values = { ...valid, phone: '12345', verificationCode: '' };
    expect(fieldError(registerRequestSchema, values, 'phone')).toBe(authMessages.phoneInvalid);
    expect(fieldError(registerRequestSchema, values, 'verificationCode')).toBe(authMessages.codeRequired);
    expect(fieldError(registerRequestSchema, values, 'password')).toBeNull();
  });

  it('applies the cross-field confirmation rule while other fields are still wrong', () => {
    const values = { ...valid, phone: '', confirmPassword: 'other' };
    expect(fieldError(registerRequestSchema, values, 'confirmPassword')).toBe(authMessages.confirmMismatch);
  });

  it('knows the register password rules and the optional sales fields', () => {
    expect(fieldError(registerRequestSchema, { ...valid, password: 'password1' }, 'password')).toBe(
      authMessages.passwordComplexity,
    );
    expect(fieldError(registerRequestSchema, { ...valid, salesPhone: '' }, 'salesPhone')).toBeNull();
    expect(fieldError(registerRequestSchema, { ...valid, salesPhone: '123' }, 'salesPhone')).toBe(
      authMessages.salesPhoneInvalid,
    );
    expect(fieldError(registerRequestSchema, { ...valid, salesName: 'x'.repeat(101) }, 'salesName')).toBe(
      authMessages.salesNameMax,
    );
  });

  it('checks login fields with the login schema (6–100, no complexity)', () => {
    expect(fieldError(loginRequestSchema, { phone: valid.phone }, 'password')).toBe(
      authMessages.passwordRequired,
    );
    expect(fieldError(loginRequestSchema, { phone: valid.phone, password: 'abc' }, 'password')).toBe(
      authMessages.passwordLength,
    );
    expect(fieldError(loginRequestSchema, { phone: valid.phone, password: 'abcdef' }, 'password')).toBeNull();
  });
});
