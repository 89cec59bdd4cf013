import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app shows for `secret` at `at` (what a phone would type). */
export const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

/** What the helper needs of the app: inject, as `t.app` has it. */
type Inject = (opts: {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  payload: object;
}) => PromiseLike<{ statusCode: number; body: string; json(): { data: unknown } }>;

/** Enrols `headers`' administrator in 2FA at `now`: the secret and the recovery codes. */
export async function enrol(app: { inject: Inject }, headers: Record<string, string>, now: Date) {
  const started = await app.inject({
    method: 'POST',
    url: '/api/admin/auth/totp/enrol',
    headers,
    payload: {},
  });
  if (started.statusCode !== 200) throw new Error(started.body);
  const { secret, uri } = started.json().data as { secret: string; uri: string };
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/admin/auth/totp/confirm',
    headers,
    payload: { code: codeAt(secret, now) },
  });
  if (confirmed.statusCode !== 200) throw new Error(confirmed.body);
  return { secret, uri, recoveryCodes: (confirmed.json().data as { recoveryCodes: string[] }).recoveryCodes };
}
