/**
 * The public face of auth: what other modules may import (besides its tables files). The module's
 * definition for the app is auth.module.ts.
 */

export { accessTokenErrors } from './access-tokens/access-tokens.errors.ts';
export { authErrors } from './auth.errors.ts';
export { adminAccountKey } from './auth.models.ts';
export { ADMIN_TOTP_POLICY_KEY, createAuthRepository } from './auth.repository.ts';
export type { AuthAdmin, AuthLookups, AuthUser } from './auth.types.ts';
export type { AuthDeps } from './auth.usecases.ts';
export { checkLoginAllowed, type LoginLimitDeps } from './login-limits.ts';
export { hashPassword, verifyPassword } from './passwords.ts';
export { databaseRateLimitStore } from './rate-limit-store.ts';
export { countHit } from './rate-limits.repository.ts';
export { refreshCookieJar } from './refresh-cookie.ts';
export { sha256, spendRefreshToken } from './refresh-rotation.ts';
export { requiresUser, routeAccess } from './route-access.ts';
export { adminActor, adminTenantScope, perCustomerLimit, signedInAdmin, signedInUser } from './signed-in.ts';
export type { TokenService } from './tokens.ts';
export { CODE_RULES } from './verification-codes.ts';
