import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_RESEND_COOLDOWN_S, type CodeType } from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SmsDriver } from '../sms/index.ts';
import { authErrors } from './auth.errors.ts';
import { createVerificationCodesRepository, withSendLocks } from './verification-codes.repository.ts';

/** DESIGN §8: 6 digits, hashed, 5 minutes, 5 wrong tries burn it, 60 s between sends, daily caps. */
export const CODE_RULES = {
  ttlMs: 5 * 60_000,
  maxAttempts: 5,
  cooldownMs: CODE_RESEND_COOLDOWN_S * 1000,
  dailyCapPerPhone: 10,
  dailyCapPerIp: 30,
  dayMs: 24 * 3600_000,
} as const;

export interface CodeDeps {
  db: Db;
  sms: SmsDriver;
  now: Now;
  secret: string;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Codes one address may ask for a day (CODE_DAILY_CAP_PER_IP); CODE_RULES' when absent. */
  dailyCapPerIp?: number;
}

/**
 * How a code reaches its phone. `await`: the answer waits for the provider and reports its
 * failure. `background`: the answer does not wait (nor tell of a failure, which is logged), so
 * its time and words never depend on the provider. `decoy`: nothing is sent; a row that no code
 * matches is stored, so the cooldown, the caps and the wrong-code answers are those of a real one.
 */
export type CodeDelivery = 'await' | 'background' | 'decoy';

interface CodeTarget {
  tenantId: number;
  phone: string;
  purpose: CodeType;
}

const hashCode = (secret: string, t: CodeTarget, code: string) =>
  createHmac('sha256', secret).update(`${t.tenantId}:${t.phone}:${t.purpose}:${code}`).digest('hex');

/**
 * Issues and sends a code; returns it so non-production answers can show it (SPEC.md §3), or
 * null for a decoy.
 */
export async function sendVerificationCode(
  deps: CodeDeps,
  target: CodeTarget,
  ip: string,
  delivery: CodeDelivery = 'await',
): Promise<string | null> {
  const now = deps.now();
  const dayAgo = new Date(now.getTime() - CODE_RULES.dayMs);
  const repo = createVerificationCodesRepository({ db: deps.db });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // Checked and stored under the phone's and the address's locks; the provider is called after.
  const id = await withSendLocks(deps.db, target, ip, async (locked) => {
    const last = await locked.lastIssuedAt(target, dayAgo);
    if (last) {
      const waitMs = last.getTime() + CODE_RULES.cooldownMs - now.getTime();
      if (waitMs > 0) throw authErrors.codeCooldown(Math.ceil(waitMs / 1000));
    }
    const phoneCount = await locked.countForPhoneSince(target, dayAgo);
    const ipCount = await locked.countForIpSince(ip, dayAgo);
    if (
      phoneCount >= CODE_RULES.dailyCapPerPhone ||
      ipCount >= (deps.dailyCapPerIp ?? CODE_RULES.dailyCapPerIp)
    )
      throw authErrors.codeDailyCap();
    return locked.insert({
      ...target,
      // A decoy's hash is as long as a real one, but random: no code matches it.
      codeHash: delivery === 'decoy' ? randomBytes(32).toString('hex') : hashCode(deps.secret, target, code),
      expiresAt: new Date(now.getTime() + CODE_RULES.ttlMs),
      ip,
      createdAt: now,
    });
  });
  if (delivery === 'decoy') return null;
  if (delivery === 'background') {
    // The stored code keeps counting if the send fails: removing it would answer the next
    // request differently from a decoy's (no cooldown), which tells registered phones apart.
    deps.sms.send({ phone: target.phone, code, purpose: target.purpose }).catch((err: unknown) => {
      deps.log?.error({ err, purpose: target.purpose }, 'verification code not sent');
    });
    return code;
  }
  try {
    await deps.sms.send({ phone: target.phone, code, purpose: target.purpose });
  } catch {
    // An unsent code must not count against the cooldown or the caps.
    if (id !== undefined) await repo.delete(id);
    throw authErrors.smsFailed();
  }
  return code;
}

/**
 * Checks the latest live code and consumes it. Each wrong try is counted in its own statement
 * (not inside the caller's transaction) so a rollback cannot undo it.
 */
export async function consumeVerificationCode(deps: Omit<CodeDeps, 'sms'>, target: CodeTarget, code: string) {
  const now = deps.now();
  const repo = createVerificationCodesRepository({ db: deps.db });
  const live = await repo.latestUnconsumed(target);
  if (!live || live.expiresAt.getTime() <= now.getTime()) throw authErrors.codeExpired();
  if (live.attempts >= CODE_RULES.maxAttempts) throw authErrors.codeBurnt();

  const expected = Buffer.from(live.codeHash, 'hex');
  const given = Buffer.from(hashCode(deps.secret, target, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    const attempts = await repo.countWrongTry(live.id);
    throw (attempts ?? 0) >= CODE_RULES.maxAttempts ? authErrors.codeBurnt() : authErrors.codeWrong();
  }
  // Two requests racing with the same code: only one wins.
  if (!(await repo.consume(live.id, now))) throw authErrors.codeExpired();
}
