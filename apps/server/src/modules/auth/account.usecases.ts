import type { ChangePhoneRequest, CodeType, RegisterRequest, User } from '@gpu/shared';
import type { Tx } from '../../platform/db/client.ts';
import { authErrors } from './auth.errors.ts';
import { reauthAccountKey, toUser, userAccountKey } from './auth.models.ts';
import { createAuthRepository, type SessionOrigin, type UserRow } from './auth.repository.ts';
import { checkReauthAllowed } from './login-limits.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { type AuthDeps, type Session, startSession } from './sessions.usecases.ts';
import { consumeVerificationCode, sendVerificationCode } from './verification-codes.ts';

/**
 * Opens the new user's zero-balance account in the registration's transaction. Balances are
 * billing's (a module above auth), so the app hands the opener in.
 */
export type OpenAccount = (tx: Tx, owner: { userId: number; tenantId: number }) => Promise<void>;

export async function register(
  deps: AuthDeps & { openAccount: OpenAccount },
  tenantId: number,
  input: RegisterRequest,
): Promise<User> {
  const repo = createAuthRepository(deps);
  if (await repo.isTaken(tenantId, 'phone', input.phone)) throw authErrors.phoneTaken();
  await consumeVerificationCode(
    deps,
    { tenantId, phone: input.phone, purpose: 'REGISTER' },
    input.verificationCode,
  );
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db.transaction(async (tx) => {
    const created = await createAuthRepository({ db: tx }).createUser({
      tenantId,
      phone: input.phone,
      passwordHash,
      salesName: input.salesName,
      salesPhone: input.salesPhone,
    });
    if (created) await deps.openAccount(tx, { userId: created.id, tenantId: created.tenantId });
    return created;
  });
  if (!user) throw authErrors.phoneTaken();
  return toUser(user);
}

/**
 * Sends a code. REGISTER and CHANGE_PHONE need a free phone (the screens check it first).
 * RESET_PASSWORD answers alike for unknown phones (DESIGN §9) in status, words and time: they
 * get a decoy (the same checks and row, nothing sent), registered ones a code sent in the
 * background (the provider's latency or failure would tell them apart).
 */
export async function sendCode(
  deps: AuthDeps,
  tenantId: number,
  input: { phone: string; codeType: CodeType },
  ip: string,
): Promise<string | null> {
  const repo = createAuthRepository(deps);
  const taken = await repo.isTaken(tenantId, 'phone', input.phone);
  if (input.codeType !== 'RESET_PASSWORD' && taken) throw authErrors.phoneTaken();
  const target = { tenantId, phone: input.phone, purpose: input.codeType };
  if (input.codeType !== 'RESET_PASSWORD') return sendVerificationCode(deps, target, ip);
  return sendVerificationCode(deps, target, ip, taken ? 'background' : 'decoy');
}

export async function resetPassword(
  deps: AuthDeps,
  tenantId: number,
  input: { phone: string; code: string; newPassword: string },
): Promise<void> {
  const repo = createAuthRepository(deps);
  // Unknown phones got a decoy, which no code matches: they fail exactly like a wrong code.
  await consumeVerificationCode(
    deps,
    { tenantId, phone: input.phone, purpose: 'RESET_PASSWORD' },
    input.code,
  );
  const user = await repo.userByPhone(tenantId, input.phone);
  if (!user) throw authErrors.codeExpired();
  const now = deps.now();
  await repo.updateUser(user.id, {
    passwordHash: await hashPassword(input.newPassword),
    tokensValidAfter: now,
  });
  await repo.revokeAllForUser(user.id, now);
  await repo.clearFailures(userAccountKey(tenantId, input.phone));
}

/**
 * A signed-in user's current password, checked under the re-authentication limit (per account,
 * in login_failures): a wrong one counts, a right one clears the count.
 */
async function checkCurrentPassword(
  deps: AuthDeps,
  repo: ReturnType<typeof createAuthRepository>,
  user: UserRow,
  password: string,
  ip: string,
  wrong: () => Error,
) {
  const account = reauthAccountKey(user.id);
  await checkReauthAllowed(deps, repo, account, ip);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await repo.recordFailure(account, ip, deps.now());
    throw wrong();
  }
  await repo.clearFailures(account);
}

export async function changePassword(
  deps: AuthDeps,
  userId: number,
  input: { oldPassword: string; newPassword: string },
  origin: SessionOrigin & { ip: string },
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const user = await repo.userById(userId);
  if (!user) throw authErrors.refreshInvalid();
  await checkCurrentPassword(deps, repo, user, input.oldPassword, origin.ip, authErrors.oldPasswordWrong);
  const now = deps.now();
  await repo.updateUser(user.id, {
    passwordHash: await hashPassword(input.newPassword),
    tokensValidAfter: now,
  });
  await repo.revokeAllForUser(user.id, now);
  // Every other session ends; this one continues with fresh tokens.
  return startSession(deps, user, false, undefined, origin);
}

/**
 * Moves the account to a new phone: the current password (under the re-authentication limit) and
 * the code sent to the new phone prove both ends. Like a password change, every session ends and
 * this one continues with fresh tokens; the old phone gets a notice (no code).
 */
export async function changePhone(
  deps: AuthDeps,
  userId: number,
  input: ChangePhoneRequest,
  origin: SessionOrigin & { ip: string },
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const user = await repo.userById(userId);
  if (!user) throw authErrors.refreshInvalid();
  if (user.phone === input.newPhone) throw authErrors.samePhone();
  if (await repo.isTaken(user.tenantId, 'phone', input.newPhone)) throw authErrors.phoneTaken();
  // The password first: a wrong one leaves the code for the right one.
  await checkCurrentPassword(deps, repo, user, input.password, origin.ip, authErrors.currentPasswordWrong);
  await consumeVerificationCode(
    deps,
    { tenantId: user.tenantId, phone: input.newPhone, purpose: 'CHANGE_PHONE' },
    input.code,
  );
  // A username that is the old phone (the default at registration) follows it: left behind, it
  // would block anyone registering the freed number later (usernames are unique per tenant).
  const followsPhone = user.username === user.phone;
  const username =
    followsPhone && !(await repo.isTaken(user.tenantId, 'username', input.newPhone))
      ? input.newPhone
      : user.username;
  const now = deps.now();
  try {
    await repo.updateUser(user.id, { phone: input.newPhone, username, tokensValidAfter: now });
  } catch {
    throw authErrors.phoneTaken();
  }
  await repo.revokeAllForUser(user.id, now);
  try {
    await deps.sms.sendNotice({
      phone: user.phone,
      notice: { kind: 'PHONE_CHANGED', newPhone: input.newPhone },
    });
  } catch (err) {
    deps.log?.warn({ err, userId: user.id }, 'phone-changed notice to the old phone not sent');
  }
  return startSession(deps, { ...user, phone: input.newPhone, username }, false, undefined, origin);
}

export async function isAvailable(
  deps: Pick<AuthDeps, 'db'>,
  tenantId: number,
  field: 'phone' | 'username' | 'email',
  value: string,
) {
  return !(await createAuthRepository(deps).isTaken(tenantId, field, value));
}
