import { describe, expect, it } from 'vitest';
import {
  authMessages,
  changePasswordRequestSchema,
  loginRequestSchema,
  passwordStrength,
  registerRequestSchema,
  resetPasswordRequestSchema,
} from './auth.ts';
import { passwordRule } from './password-rule.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error?.issues[0]?.message;

const validRegister = {
  phone: '13800138000',
  verificationCode: '123456',
  password: 'Abc12345',
  confirmPassword: 'Abc12345',
};

describe('phone and login rules', () => {
  it.each([
    ['', authMessages.phoneRequired],
    ['1380013800', authMessages.phoneInvalid],
    ['12800138000', authMessages.phoneInvalid],
    ['138001380001', authMessages.phoneInvalid],
    ['1380013800a', authMessages.phoneInvalid],
  ])('phone %j → %s', (phone, msg) => {
    expect(firstMessage(loginRequestSchema.safeParse({ phone, password: 'abcdef' }))).toBe(msg);
  });
  it('password 6–100', () => {
    expect(firstMessage(loginRequestSchema.safeParse({ phone: '13800138000', password: '' }))).toBe(
      authMessages.passwordRequired,
    );
    expect(firstMessage(loginRequestSchema.safeParse({ phone: '13800138000', password: '12345' }))).toBe(
      authMessages.passwordLength,
    );
    expect(loginRequestSchema.safeParse({ phone: '13800138000', password: 'x'.repeat(100) }).success).toBe(
      true,
    );
    expect(
      firstMessage(loginRequestSchema.safeParse({ phone: '13800138000', password: 'x'.repeat(101) })),
    ).toBe(authMessages.passwordLength);
  });
});

describe('register rules', () => {
  it('accepts a valid request with optional sales fields', () => {
    expect(
      registerRequestSchema.safeParse({ ...validRegister, salesName: '张三', salesPhone: '' }).success,
    ).toBe(true);
  });
  it.each([
    [{ verificationCode: '12345' }, authMessages.codeInvalid],
    [{ verificationCode: '' }, authMessages.codeRequired],
    [{ password: 'abc12345', confirmPassword: 'abc12345' }, authMessages.passwordComplexity],
    [{ password: 'ABC12345', confirmPassword: 'ABC12345' }, authMessages.passwordComplexity],
    [{ password: 'Abc 12345', confirmPassword: 'Abc 12345' }, authMessages.passwordCharset],
    [{ confirmPassword: 'Abc12346' }, authMessages.confirmMismatch],
    [{ salesName: '长'.repeat(101) }, authMessages.salesNameMax],
    [{ salesPhone: '123' }, authMessages.salesPhoneInvalid],
  ])('%o → %s', (patch, msg) => {
    expect(firstMessage(registerRequestSchema.safeParse({ ...validRegister, ...patch }))).toBe(msg);
  });
});

describe('reset rules', () => {
  const base = { phone: '13800138000', code: '123456' };
  const reset = (newPassword: string) => resetPasswordRequestSchema.safeParse({ ...base, newPassword });
  it('new password is 6–16', () => {
    expect(reset('Abcdefghij12345x').success).toBe(true);
    expect(reset('Abc123').success).toBe(true);
    expect(firstMessage(reset('Abcdefghij12345xy'))).toBe(authMessages.resetPasswordLength);
    expect(firstMessage(reset('Abc12'))).toBe(authMessages.resetPasswordLength);
  });
  it.each([
    ['111111', authMessages.passwordComplexity],
    ['abcdef1', authMessages.passwordComplexity],
    ['ABCDEF1', authMessages.passwordComplexity],
    ['Abcdefg', authMessages.passwordComplexity],
    ['Abc 12345', authMessages.passwordCharset],
  ])('new password %j is composed as at registration → %s', (pw, msg) => {
    expect(firstMessage(reset(pw))).toBe(msg);
    // The same words as the register form says them.
    expect(
      firstMessage(registerRequestSchema.safeParse({ ...validRegister, password: pw, confirmPassword: pw })),
    ).toBe(msg);
  });
});

describe('password strength', () => {
  it.each([
    ['', 0, '很弱'],
    ['abcdef', 40, '弱'],
    ['abcdefgh', 50, '中等'],
    ['abcdefg1', 75, '较强'],
    ['Abcdefg1', 100, '强'],
    ['Abc1', 75, '较强'],
    ['Ab1xyz', 90, '较强'],
  ])('%j scores %i (%s)', (pw, score, level) => {
    const s = passwordStrength(pw);
    expect(s.score).toBe(score);
    expect(s.level).toBe(level);
  });
  it("lists what is missing: the rule's own minimum (6), never a stricter one", () => {
    expect(passwordStrength('abc').missing).toEqual(['至少6个字符', '数字', '大写字母']);
    // 6–7 characters meet the rule: they score less (SPEC.md §5) but nothing is missing.
    expect(passwordStrength('Abc123').missing).toEqual([]);
  });
});

describe('the password rule, stated once', () => {
  it('says the same lengths and composition as the schemas check', () => {
    expect(passwordRule.newPassword).toBe('6-100位，须包含大写字母、小写字母和数字');
    expect(passwordRule.resetPassword).toBe('6-16位，须包含大写字母、小写字母和数字');
    expect(authMessages.passwordLength).toBe('密码长度为6-100位');
    expect(authMessages.resetPasswordLength).toBe('新密码长度为6-16位');
    expect(
      firstMessage(changePasswordRequestSchema.safeParse({ oldPassword: 'x'.repeat(6), newPassword: 'Ab1' })),
    ).toBe(authMessages.passwordLength);
    expect(
      firstMessage(
        changePasswordRequestSchema.safeParse({ oldPassword: 'x'.repeat(6), newPassword: 'abcdef' }),
      ),
    ).toBe(authMessages.passwordComplexity);
    expect(
      changePasswordRequestSchema.safeParse({ oldPassword: 'x'.repeat(6), newPassword: 'Abc123' }).success,
    ).toBe(true);
  });
});
