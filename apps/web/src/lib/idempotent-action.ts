import { ApiError, IN_FLIGHT } from './api-client';

/**
 * A fresh `Idempotency-Key`: 32 hex characters from the platform's random source
 * (`getRandomValues` works on plain-HTTP deployments, where `randomUUID` does not).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The call ended without telling whether the server did it: no answer, or still running there. */
export const outcomeUnknown = (err: unknown) =>
  err instanceof ApiError && (err.status === 0 || err.code === IN_FLIGHT);

/**
 * One user action that moves money (create, renew, recharge) as a function of its payload:
 * each click sends a fresh key, except that a click repeating an action whose outcome is unknown
 * (timeout, network error, still running) with the same payload sends that action's key again,
 * so the server answers what it did the first time instead of buying twice. Any answer — success
 * or refusal — ends the action; the next click is a new one.
 */
export function idempotentAction<P, R>(
  send: (payload: P, idempotencyKey: string) => Promise<R>,
  newKey: () => string = newIdempotencyKey,
): (payload: P) => Promise<R> {
  let open: { key: string; payload: string } | null = null;
  return async (payload) => {
    const fingerprint = JSON.stringify(payload);
    const key = open?.payload === fingerprint ? open.key : newKey();
    open = { key, payload: fingerprint };
    try {
      const result = await send(payload, key);
      open = null;
      return result;
    } catch (err) {
      if (!outcomeUnknown(err)) open = null;
      throw err;
    }
  };
}
