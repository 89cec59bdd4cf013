import { createHash } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Now } from '../../platform/clock.ts';

/** Who a token speaks for; users and admins never share an audience (DESIGN §9). */
export type Audience = 'user' | 'admin';

/** Admin tokens are short (issue 29): a refresh cookie renews them, sign-out or disabling ends them. */
export const ACCESS_TTL_S: Record<Audience, number> = { user: 2 * 3600, admin: 3600 };
const ISSUER = 'gpu-rental';
/** Verified tokens kept per process: a few per signed-in browser of a busy replica. */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface AccessClaims {
  sub: string;
  aud: Audience;
  /** The session this token belongs to; revoking it ends the token at once. */
  sid: string;
  /** Tenant of a user token; admins are global. */
  tid?: number;
  /** Issued-at in milliseconds, compared with the subject's tokens-valid-after. */
  ims: number;
  iat: number;
  exp: number;
}

/** Signs and verifies short-lived access tokens with a key derived from APP_SECRET. */
export function createTokenService(appSecret: string, now: Now) {
  const key = createHash('sha256').update(`access-token:${appSecret}`).digest();
  // Imported once: given raw bytes, jose imports the key again on every sign and verify.
  const hmacKey = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

  // Tokens verified lately (issue 33: the HMAC check was a tenth of a signed-in read's CPU). Only
  // tokens this service signed get in, never a refused one; the oldest leaves first.
  const verified = new Map<string, AccessClaims>();
  const remember = (token: string, claims: AccessClaims) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, claims);
  };

  return {
    async sign(aud: Audience, subject: number, opts: { sid: string; tenantId?: number }): Promise<string> {
      const ims = now().getTime();
      const iat = Math.floor(ims / 1000);
      const { sid, tenantId } = opts;
      const jwt = new SignJWT(tenantId === undefined ? { ims, sid } : { ims, sid, tid: tenantId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(subject))
        .setAudience(aud)
        .setIssuer(ISSUER)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TTL_S[aud]);
      return jwt.sign(await hmacKey);
    },
    /** The claims of a valid token for `aud`, or null for anything else (expired, forged, other audience). */
    async verify(token: string, aud: Audience): Promise<AccessClaims | null> {
      // A token whose signature was checked before: the same bytes verify the same way, so only
      // its expiry is checked again (a session's revocation is the caller's check, every time).
      const known = verified.get(token);
      if (known && known.aud === aud && now().getTime() < known.exp * 1000) return known;
      try {
        const { payload } = await jwtVerify(token, await hmacKey, {
          algorithms: ['HS256'],
          audience: aud,
          issuer: ISSUER,
          currentDate: now(),
        });
        const { sub, iat, exp, ims, tid, sid } = payload;
        if (
          typeof sub !== 'string' ||
          typeof sid !== 'string' ||
          typeof iat !== 'number' ||
          typeof exp !== 'number' ||
          typeof ims !== 'number'
        ) {
          return null;
        }
        const claims: AccessClaims = {
          sub,
          aud,
          sid,
          tid: typeof tid === 'number' ? tid : undefined,
          iat,
          exp,
          ims,
        };
        remember(token, claims);
        return claims;
      } catch (err) {
        if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
