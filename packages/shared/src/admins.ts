import { z } from 'zod';
import { ADMIN_ROLES, TENANT_OPERATOR_ROLES } from './admin-access.ts';
import { authMessages, loginPasswordSchema, registerPasswordSchema } from './auth.ts';

/** The back office's administrators screen (管理员) and an administrator's own security (issue 29). */

export const ADMIN_USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
export const adminMessages = {
  usernameRequired: '请输入用户名',
  usernameInvalid: '用户名为 3–32 位字母、数字、下划线、点或短横线',
  roleInvalid: '请选择角色',
  tenantOperatorRole: '租户管理员只能是运营或只读角色',
  codeRequired: '请输入验证码',
  codeInvalid: '请输入 6 位动态验证码或恢复码',
  challengeRequired: '请重新登录',
} as const;

export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

export const adminRoleSchema = z.enum(ADMIN_ROLES, { message: adminMessages.roleInvalid });

const usernameSchema = z
  .string({ message: adminMessages.usernameRequired })
  .trim()
  .min(1, adminMessages.usernameRequired)
  .regex(ADMIN_USERNAME_PATTERN, adminMessages.usernameInvalid);

const tenantOperatorRule = (v: { role?: string; tenantId?: number | null }) =>
  v.tenantId === undefined ||
  v.tenantId === null ||
  v.role === undefined ||
  (TENANT_OPERATOR_ROLES as readonly string[]).includes(v.role);

const tenantIdSchema = z
  .number({ message: '租户无效' })
  .int('租户无效')
  .positive('租户无效')
  .max(2147483647)
  .nullable();

/** New administrator: the server makes a one-time password (changed at first sign-in). */
export const createAdminRequestSchema = z
  .object({ username: usernameSchema, role: adminRoleSchema, tenantId: tenantIdSchema.default(null) })
  .refine(tenantOperatorRule, { message: adminMessages.tenantOperatorRole, path: ['role'] });

export const updateAdminRequestSchema = z
  .object({
    role: adminRoleSchema.optional(),
    tenantId: tenantIdSchema.optional(),
    status: z.enum(['ACTIVE', 'DISABLED'], { message: '状态无效' }).optional(),
  })
  .refine(tenantOperatorRule, { message: adminMessages.tenantOperatorRole, path: ['role'] });

export const adminListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(ADMIN_ROLES),
  tenantId: z.number().int().nullable(),
  tenantName: z.string().nullable(),
  status: z.enum(['ACTIVE', 'DISABLED']),
  totpEnabled: z.boolean(),
  mustChangePassword: z.boolean(),
  lastLoginAt: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
  activeSessions: z.number().int(),
  createdAt: z.string(),
});
export type AdminListItem = z.infer<typeof adminListItemSchema>;

/** A password the server made: shown once to the super administrator who created or reset it. */
export const oneTimePasswordSchema = z.object({ password: z.string() });

export const adminSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  device: z.string().nullable(),
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

export const adminChangePasswordRequestSchema = z.object({
  currentPassword: loginPasswordSchema,
  newPassword: registerPasswordSchema,
});

/** A 6-digit code from the app, or one recovery code (xxxxx-xxxxx). */
const secondFactorSchema = z
  .string({ message: adminMessages.codeRequired })
  .trim()
  .min(1, adminMessages.codeRequired)
  .max(32, adminMessages.codeInvalid)
  .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i, adminMessages.codeInvalid);

export const totpVerifyRequestSchema = z.object({
  challenge: z.string({ message: adminMessages.challengeRequired }).min(1).max(2000),
  code: secondFactorSchema,
});
export const totpCodeRequestSchema = z.object({
  code: z
    .string({ message: adminMessages.codeRequired })
    .trim()
    .regex(/^\d{6}$/, '请输入 6 位动态验证码'),
});
export const totpDisableRequestSchema = z.object({
  password: z
    .string({ message: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .max(100),
});

/** Enrolment: the secret as an otpauth:// URI (the QR) and as text for manual entry. */
export const totpEnrolResponseSchema = z.object({ uri: z.string(), secret: z.string() });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** Which roles must use 2FA (the super administrator's rule; SUPER is always true once enrolled). */
export const totpPolicySchema = z.object({
  SUPER: z.boolean(),
  OPERATIONS: z.boolean(),
  FINANCE: z.boolean(),
  READONLY: z.boolean(),
});
export type TotpPolicy = z.infer<typeof totpPolicySchema>;

/** A session id as the server makes them (24 hex digits). */
export const adminSessionIdSchema = z.string().regex(/^[0-9a-f]{24}$/, '会话编号无效');
