import { z } from 'zod';

/**
 * Personal access tokens (账号安全 → API令牌, issue 32). Every scope reads; `instances` also
 * creates, powers, changes and releases instances (and what belongs to them: SSH keys, images,
 * guards, webhooks); `billing` also spends on the account's side (top-ups, vouchers, caps).
 * A token never signs in to the back office, never changes the password or phone, and never
 * manages tokens.
 */
export const ACCESS_TOKEN_SCOPES = ['read', 'instances', 'billing'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];
export const ACCESS_TOKEN_SCOPE_LABELS: Record<AccessTokenScope, string> = {
  read: '只读',
  instances: '实例管理',
  billing: '费用',
};

/** What a route asks of a token: a scope, or `session` (a signed-in browser only, never a token). */
export type RouteAccess = AccessTokenScope | 'session';

/** Lifetimes offered at creation, in days; a token always expires. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90, 180, 365] as const;
export const ACCESS_TOKEN_NAME_MAX = 32;
/** Tokens one user may hold (revoked and expired ones do not count). */
export const ACCESS_TOKENS_PER_USER = 20;
/** Requests one token may make per minute, across all routes and replicas. */
export const ACCESS_TOKEN_RATE_PER_MINUTE = 300;
/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const ACCESS_TOKEN_PREFIX = 'gpu_';
/** gpu_ and 43 base64url characters (32 random bytes). */
export const ACCESS_TOKEN_PATTERN = /^gpu_[A-Za-z0-9_-]{43}$/;

/** POST /api/user/access-tokens */
export const accessTokenCreateSchema = z
  .object({
    name: z
      .string({ message: '请填写令牌名称' })
      .trim()
      .min(1, '请填写令牌名称')
      .max(ACCESS_TOKEN_NAME_MAX, `令牌名称最多${ACCESS_TOKEN_NAME_MAX}个字符`),
    scopes: z
      .array(z.enum(ACCESS_TOKEN_SCOPES, { message: '权限只能是 read、instances 或 billing' }), {
        message: '请选择令牌权限',
      })
      .min(1, '请至少选择一项权限')
      .max(ACCESS_TOKEN_SCOPES.length, '权限重复')
      .refine((s) => new Set(s).size === s.length, '权限重复'),
    expiresInDays: z.union(
      ACCESS_TOKEN_EXPIRY_DAYS.map((d) => z.literal(d)),
      { message: `有效期只能是 ${ACCESS_TOKEN_EXPIRY_DAYS.join('、')} 天之一` },
    ),
  })
  .meta({ examples: [{ name: '训练脚本', scopes: ['read', 'instances'], expiresInDays: 30 }] });
export type AccessTokenCreate = z.infer<typeof accessTokenCreateSchema>;

const accessTokenExample = {
  id: 7,
  name: '训练脚本',
  prefix: 'gpu_Q3vX',
  scopes: ['read', 'instances'] as AccessTokenScope[],
  createdAt: '2026-11-26T10:00:00.000+08:00',
  expiresAt: '2026-12-26T10:00:00.000+08:00',
  lastUsedAt: '2026-11-26T10:30:00.000+08:00',
  lastUsedIp: '203.0.113.7',
};

export const accessTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** The first characters of the token (gpu_ and 4 more), to tell tokens apart. */
    prefix: z.string(),
    scopes: z.array(z.enum(ACCESS_TOKEN_SCOPES)),
    createdAt: z.string(),
    expiresAt: z.string(),
    /** When and from which address it was last used (updated at most once a minute). */
    lastUsedAt: z.string().nullable(),
    lastUsedIp: z.string().nullable(),
  })
  .meta({ examples: [accessTokenExample] });
export type AccessToken = z.infer<typeof accessTokenSchema>;

/** The answer to create: the token itself, shown this once and never again. */
export const accessTokenCreatedSchema = accessTokenSchema.extend({ token: z.string() }).meta({
  examples: [
    {
      ...accessTokenExample,
      lastUsedAt: null,
      lastUsedIp: null,
      token: 'gpu_Q3vXk9TmB2cR7yLwN4pZ8sD1fG6hJ0aE5uI3oK7qW2e',
    },
  ],
});
export type AccessTokenCreated = z.infer<typeof accessTokenCreatedSchema>;
