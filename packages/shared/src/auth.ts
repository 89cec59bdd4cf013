import { z } from 'zod';
import { ADMIN_ROLES } from './admin-access.ts';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_LENGTH,
  RESET_PASSWORD_MAX,
  SALES_NAME_MAX,
  VERIFICATION_CODE_LENGTH,
} from './constants.ts';
import { passwordRule } from './password-rule.ts';

/** SPEC.md §5 rules and their messages, used by the forms and re-checked by the server. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const CODE_PATTERN = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);
/** Letters, digits and common symbols. */
export const PASSWORD_CHARSET = /^[A-Za-z0-9!@#$%^&*()_+\-=[\]{};':"\\|,.<>/?`~]+$/;

export const authMessages = {
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的11位手机号',
  passwordRequired: '请输入密码',
  passwordLength: passwordRule.length,
  passwordCharset: '密码只能包含字母、数字和常用符号',
  passwordComplexity: passwordRule.composition,
  confirmRequired: '请再次输入密码',
  confirmMismatch: '两次输入的密码不一致',
  codeRequired: '请输入验证码',
  codeInvalid: `验证码为${VERIFICATION_CODE_LENGTH}位数字`,
  salesNameMax: `销售姓名不能超过${SALES_NAME_MAX}个字符`,
  salesPhoneInvalid: '请输入正确的销售手机号',
  resetPasswordLength: passwordRule.resetLength,
  agreementRequired: '请阅读并同意用户协议和隐私政策',
} as const;

export const phoneSchema = z
  .string({ message: authMessages.phoneRequired })
  .trim()
  .min(1, authMessages.phoneRequired)
  .max(PHONE_LENGTH, authMessages.phoneInvalid)
  .regex(PHONE_PATTERN, authMessages.phoneInvalid);

export const loginPasswordSchema = z
  .string({ message: authMessages.passwordRequired })
  .min(1, authMessages.passwordRequired)
  .min(PASSWORD_MIN, authMessages.passwordLength)
  .max(PASSWORD_MAX, authMessages.passwordLength);

/**
 * How a new password is composed (SPEC.md §5, register): letters, digits and common symbols, with
 * an uppercase letter, a lowercase letter and a digit. Every form that sets a password uses it;
 * only the length rule differs (6–100 at registration, 6–16 at reset).
 */
const composedPassword = (length: z.ZodString) =>
  length
    .regex(PASSWORD_CHARSET, authMessages.passwordCharset)
    .refine((p) => /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p), authMessages.passwordComplexity);

export const registerPasswordSchema = composedPassword(loginPasswordSchema);

/** A reset's new password: 6–16 (SPEC.md §5), composed as at registration. */
export const resetNewPasswordSchema = composedPassword(
  z
    .string({ message: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .min(PASSWORD_MIN, authMessages.resetPasswordLength)
    .max(RESET_PASSWORD_MAX, authMessages.resetPasswordLength),
);

export const codeSchema = z
  .string({ message: authMessages.codeRequired })
  .trim()
  .min(1, authMessages.codeRequired)
  .regex(CODE_PATTERN, authMessages.codeInvalid);

export const CODE_TYPES = ['REGISTER', 'RESET_PASSWORD', 'CHANGE_PHONE'] as const;
export type CodeType = (typeof CODE_TYPES)[number];

export const loginRequestSchema = z.object({
  phone: phoneSchema,
  password: loginPasswordSchema,
  rememberMe: z.boolean().default(false),
});

export const registerRequestSchema = z
  .object({
    phone: phoneSchema,
    verificationCode: codeSchema,
    password: registerPasswordSchema,
    confirmPassword: z.string({ message: authMessages.confirmRequired }).min(1, authMessages.confirmRequired),
    salesName: z.string().trim().max(SALES_NAME_MAX, authMessages.salesNameMax).optional(),
    salesPhone: z
      .string()
      .trim()
      .refine((v) => v === '' || PHONE_PATTERN.test(v), authMessages.salesPhoneInvalid)
      .optional(),
  })
  .refine((r) => r.password === r.confirmPassword, {
    message: authMessages.confirmMismatch,
    path: ['confirmPassword'],
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const sendCodeRequestSchema = z.object({
  phone: phoneSchema,
  codeType: z.enum(CODE_TYPES, { message: '验证码类型无效' }).default('REGISTER'),
});

export const resetPasswordRequestSchema = z.object({
  phone: phoneSchema,
  code: codeSchema,
  newPassword: resetNewPasswordSchema,
});

export const changePasswordRequestSchema = z.object({
  oldPassword: loginPasswordSchema,
  newPassword: registerPasswordSchema,
});

/** Change phone: the current password, the new phone and the code sent to it (CHANGE_PHONE). */
export const changePhoneRequestSchema = z.object({
  password: loginPasswordSchema,
  newPhone: phoneSchema,
  code: codeSchema,
});
export type ChangePhoneRequest = z.infer<typeof changePhoneRequestSchema>;

/** How many recent sign-ins the account-security screen lists. */
export const RECENT_SIGN_INS = 10;
/** One sign-in (a session) on the account-security screen. */
export const signInSchema = z.object({
  time: z.string(),
  ip: z.string().nullable(),
  /** The browser's user agent as sent. */
  device: z.string().nullable(),
  /** The session of the request asking. */
  current: z.boolean(),
  /** Not yet signed out or revoked. */
  active: z.boolean(),
});
export type SignIn = z.infer<typeof signInSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  username: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  certified: z.boolean(),
  salesName: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const loginResponseSchema = z.object({ accessToken: z.string(), user: userSchema });

/**
 * The signed-in administrator (SPEC.md §4: `roles` holds ADMIN, with the role beside it). The
 * permissions are the server's, so the back office shows exactly what the server allows; the two
 * `must…` flags hold every other route until the administrator changes the password or enrols 2FA.
 */
export const adminSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  roles: z.array(z.string()),
  role: z.enum(ADMIN_ROLES),
  tenantId: z.number().int().nullable(),
  tenantName: z.string().nullable(),
  permissions: z.array(z.string()),
  totpEnabled: z.boolean(),
  mustChangePassword: z.boolean(),
  mustEnrolTotp: z.boolean(),
});
export type Admin = z.infer<typeof adminSchema>;
export const adminLoginRequestSchema = z.object({
  username: z.string({ message: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: z
    .string({ message: '请输入密码' })
    .min(1, '请输入密码')
    .max(PASSWORD_MAX, authMessages.passwordLength),
});
/** Signed in; or, with 2FA on, a challenge to answer at /admin/auth/totp/verify. */
export const adminLoginResponseSchema = z.union([
  z.object({ token: z.string(), admin: adminSchema }),
  z.object({ mfaRequired: z.literal(true), challenge: z.string() }),
]);
export type AdminLoginResponse = z.infer<typeof adminLoginResponseSchema>;

export const balanceSchema = z
  .object({ available: z.number(), frozen: z.number(), total: z.number() })
  .meta({ examples: [{ available: 128.5, frozen: 20, total: 148.5 }] });
export type Balance = z.infer<typeof balanceSchema>;

/** Strength meter of SPEC.md §5: length 8+ → 25, 6–7 → 15, +25 each for digit, lower, upper. */
export function passwordStrength(password: string): {
  score: number;
  level: '强' | '较强' | '中等' | '弱' | '很弱';
  missing: string[];
} {
  let score = password.length >= 8 ? 25 : password.length >= 6 ? 15 : 0;
  const missing: string[] = [];
  // Length 8+ scores more (SPEC.md §5), but only the rule's minimum is a requirement.
  if (password.length < PASSWORD_MIN) missing.push(passwordRule.tooShort);
  for (const [re, label] of [
    [/\d/, '数字'],
    [/[a-z]/, '小写字母'],
    [/[A-Z]/, '大写字母'],
  ] as const) {
    if (re.test(password)) score += 25;
    else missing.push(label);
  }
  const level =
    score >= 100 ? '强' : score >= 75 ? '较强' : score >= 50 ? '中等' : score >= 25 ? '弱' : '很弱';
  return { score, level, missing };
}
