import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { idempotencyErrors } from './idempotency.errors.ts';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, IDEMPOTENCY_WAIT_MS } from './idempotency.models.ts';
import { createIdempotencyRepository } from './idempotency.repository.ts';

export interface IdempotencyDeps {
  db: Db;
  now: Now;
  /** Stored answers are sealed: create's answer carries the instance's root password. */
  box: SecretBox;
}

export interface IdempotentRequest {
  userId: number;
  scope: string;
  key: string;
  requestHash: string;
}

/** What to do with a request: run it (and store its answer under `id`), or answer the stored one. */
export type Claim = { run: true; id: number } | { run: false; status: number; body: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Claims the key for this request, or finds the first request's answer. The unique
 * (user, scope, key) lets exactly one request run; a replay while it runs polls for its answer
 * up to `waitMs`, then answers 409. Other input under the same key is 422.
 */
export async function claimRequest(
  deps: IdempotencyDeps,
  req: IdempotentRequest,
  waitMs = IDEMPOTENCY_WAIT_MS,
): Promise<Claim> {
  const repo = createIdempotencyRepository(deps);
  const deadline = performance.now() + waitMs;
  for (let delay = 25; ; delay = Math.min(delay * 2, 200)) {
    const claimed = await repo.claim({ ...req, at: deps.now() });
    if (claimed) return { run: true, id: claimed.id };
    const row = await repo.find(req.userId, req.scope, req.key);
    // Purged between the two statements: claim again.
    if (!row) continue;
    if (row.requestHash !== req.requestHash) throw idempotencyErrors.bodyMismatch();
    if (row.responseStatus !== null && row.responseBody !== null)
      return { run: false, status: row.responseStatus, body: deps.box.open(row.responseBody) };
    const now = deps.now();
    if (now.getTime() - row.startedAt.getTime() > IDEMPOTENCY_LEASE_MS) {
      if (await repo.takeOver(row.id, row.startedAt, now)) return { run: true, id: row.id };
      continue;
    }
    if (performance.now() + delay > deadline) throw idempotencyErrors.inFlight();
    await sleep(delay);
  }
}

/** Stores the answer the first request gave, for its replays. */
export async function completeRequest(deps: IdempotencyDeps, id: number, status: number, body: string) {
  await createIdempotencyRepository(deps).complete(id, status, deps.box.seal(body), deps.now());
}

/** Drops stored answers older than a day (a scheduled task), in batches. */
export async function purgeExpiredRequests(deps: Pick<IdempotencyDeps, 'db' | 'now'>, batch = 1000) {
  const repo = createIdempotencyRepository(deps);
  const before = new Date(deps.now().getTime() - IDEMPOTENCY_TTL_MS);
  let purged = 0;
  for (;;) {
    const n = await repo.purge(before, batch);
    purged += n;
    if (n < batch) return { purged };
  }
}
