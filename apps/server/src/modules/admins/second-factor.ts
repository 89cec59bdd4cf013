import { createHash, randomBytes, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@gpu/shared';
import { errors, jwtVerify, SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Now } from '../../platform/clock.ts';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s. */
const PERIOD_S = 30;
const ISSUER = 'GPU算力平台后台';

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export const totpOf = (secretBase32: string, username: string) =>
  new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/**
 * The time step a code belongs to, or null: the current step or one either side (clock drift of
 * the phone). The caller refuses a step used before, so a code works once.
 */
export function totpStep(secretBase32: string, username: string, code: string, now: Date): number | null {
  const delta = totpOf(secretBase32, username).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** Recovery codes: 10 random characters shown as xxxxx-xxxxx; stored as SHA-256 of the bare form. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
export const recoveryCodeHash = (code: string) =>
  createHash('sha256').update(code.trim().toLowerCase().replace('-', '')).digest('hex');

/** A one-time password for a new or reset administrator: 14 characters with every class the rules ask. */
export function newOneTimePassword(): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const rest = randomBytes(16).toString('base64url').replace(/[-_]/g, '').slice(0, 11);
  return `${pick('ABCDEFGHJKLMNPQRSTUVWXYZ')}${pick('abcdefghjkmnpqrstuvwxyz')}${pick('23456789')}${rest}`;
}

/**
 * The proof that an administrator passed the password step, good for 5 minutes at the code step:
 * a JWT of its own audience, never accepted as an access token.
 */
const CHALLENGE_TTL_S = 300;
const CHALLENGE_AUDIENCE = 'admin-2fa';
export function createChallenges(appSecret: string, now: Now) {
  const key = createHash('sha256').update(`admin-2fa-challenge:${appSecret}`).digest();
  return {
    sign: (adminId: number) => {
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(adminId))
        .setAudience(CHALLENGE_AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + CHALLENGE_TTL_S)
        .sign(key);
    },
    /** The administrator the challenge is for, or null (expired, forged, another kind of token). */
    async verify(challenge: string): Promise<number | null> {
      try {
        const { payload } = await jwtVerify(challenge, key, {
          algorithms: ['HS256'],
          audience: CHALLENGE_AUDIENCE,
          currentDate: now(),
        });
        const id = Number(payload.sub);
        return Number.isInteger(id) && id > 0 ? id : null;
      } catch (err) {
        if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
  };
}
