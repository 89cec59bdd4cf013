import { createHash } from 'node:crypto';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** What a key may be: long enough to be unique per user action, short enough to store. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
/** How long an answer is kept for replays. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * A claim without an answer this old is taken to be abandoned (the process died mid-request)
 * and a replay runs the request again. Longer than any request may take.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60_000;
/** How long a replay waits for the first request's answer before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 5_000;

/** Same input, same JSON: object keys sorted at every level. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * The fingerprint of a request's validated input: body, query and, where the path has any, its
 * parameters (one key reused on another instance's path is other input, not a replay). Without
 * path parameters the fingerprint is what it was before they counted.
 */
export const requestHash = (input: { body: unknown; query: unknown; params?: unknown }) => {
  const params = input.params && Object.keys(input.params).length > 0 ? { params: input.params } : {};
  return createHash('sha256')
    .update(JSON.stringify(canonical({ body: input.body ?? null, query: input.query ?? null, ...params })))
    .digest('hex');
};
