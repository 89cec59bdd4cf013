import { randomUUID } from 'node:crypto';
import { envelopeSchema, type MarketQuery, marketListSchema } from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import {
  COMPRESS_MIN_BYTES,
  chooseEncoding,
  type Encoding,
  encode,
} from '../../platform/http/compression.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import type { MarketCatalog } from './market.usecases.ts';

/** PostgreSQL channel on which a replica says "the market changed" (payload: its origin id). */
export const MARKET_CHANNEL = 'market_changed';
/** A safety net for changes that bypass invalidate() (a hand edit in psql); not the mechanism. */
const MAX_AGE_MS = 30_000;
/** How long a replica gathers its invalidations into one NOTIFY. */
const NOTIFY_COALESCE_MS = 20;
/** Suffix of a NOTIFY payload saying discount rules changed too. */
const DISCOUNTS_TOO = '+discounts';
/** Distinct queries kept per process before starting afresh (keyword searches are unbounded). */
const MAX_ENTRIES = 2_000;

const listAnswer = envelopeSchema(marketListSchema);

export type MarketReadModel = ReturnType<typeof createMarketReadModel>;

interface Entry {
  key: string;
  json: Buffer;
  builtAt: number;
  expiresAt: number;
  /**
   * The answer compressed, per coding: made on the first request that accepts it (a promise
   * while it is being made, then the bytes themselves, at hand without waiting).
   */
  encoded: Partial<Record<Encoding, Promise<Buffer> | Buffer>>;
}

/** An answer's bytes and their content coding (null: as they are). */
export interface MarketAnswer {
  body: Buffer;
  encoding: Encoding | null;
}

/**
 * The in-process read model of GET /api/gpu/market: each (tenant, query) answer, serialized once
 * and kept until something that changes the market calls invalidate() on any replica (this one
 * directly, the others through PostgreSQL NOTIFY), or until the next start or end of one of the
 * tenant's discounts. A layer around the catalog: what the market shows is still computed by
 * `catalog.list` alone, so new inputs (offers, prices, discounts) need no change here.
 */
export function createMarketReadModel({
  catalog,
  discounts,
  database,
  now,
  log,
}: {
  catalog: MarketCatalog;
  discounts: DiscountService;
  database: Database;
  now: Now;
  log: FastifyBaseLogger;
}) {
  const origin = randomUUID();
  const entries = new Map<string, Entry>();
  // The same entries by the request's raw query string: a repeated URL finds its answer without
  // normalising the query first (the same query may be spelt many ways, hence two maps).
  const byRawQuery = new Map<string, Entry>();
  // Bumped by every invalidation: an answer computed across one is not kept (it may be stale).
  let generation = 0;
  let stopListening: (() => Promise<void>) | null = null;

  // Discount rules are cached too (2 s), and only a rule change needs them dropped: an
  // instance change, far more frequent, keeps them.
  const dropLocal = (withDiscounts: boolean) => {
    generation++;
    entries.clear();
    byRawQuery.clear();
    catalog.invalidate();
    if (withDiscounts) discounts.invalidate();
  };

  // Other replicas hear of changes through one NOTIFY per NOTIFY_COALESCE_MS at most: a burst
  // of creates is one message (and one query) instead of one each. This replica drops at once.
  let pending: { discounts: boolean; timer: NodeJS.Timeout } | null = null;
  const flush = async () => {
    if (!pending) return;
    const { discounts: withDiscounts, timer } = pending;
    clearTimeout(timer);
    pending = null;
    await database
      .notify(MARKET_CHANNEL, withDiscounts ? `${origin}${DISCOUNTS_TOO}` : origin)
      .catch((err: unknown) => {
        log.warn({ err }, 'market: telling other replicas failed; they catch up within 30 s');
      });
  };

  /** The next instant a discount of the tenant starts or ends: the answer changes then. */
  async function nextBoundary(tenantId: number, t: number) {
    let next = t + MAX_AGE_MS;
    for (const r of await discounts.rulesFor(tenantId)) {
      for (const at of [r.startsAt.getTime(), r.endsAt.getTime()]) if (at > t && at < next) next = at;
    }
    return next;
  }

  const current = (entry: Entry) => {
    const t = now().getTime();
    return t < entry.expiresAt && t >= entry.builtAt;
  };
  const rawKey = (tenant: TenantRecord, rawQuery: string) => `${tenant.id}|${rawQuery}`;
  /** The current entry a request with this raw query string was answered from, if any. */
  const byRaw = (key: string) => {
    const entry = byRawQuery.get(key);
    return entry && current(entry) ? entry : undefined;
  };
  const encodingFor = (entry: Entry, acceptEncoding: string | undefined) =>
    entry.json.length >= COMPRESS_MIN_BYTES ? chooseEncoding(acceptEncoding) : null;

  /** The cached answer to (tenant, query), built and kept when missing or out of date. */
  async function answer(tenant: TenantRecord, q: MarketQuery): Promise<Entry> {
    const key = `${tenant.id}|${JSON.stringify(q, Object.keys(q).sort())}`;
    const t = now().getTime();
    const hit = entries.get(key);
    if (hit && current(hit)) return hit;
    const seen = generation;
    const [list, expiresAt] = await Promise.all([catalog.list(tenant, q), nextBoundary(tenant.id, t)]);
    // Checked once here, as the response schema would check every answer.
    const json = Buffer.from(JSON.stringify(listAnswer.parse(ok(list))));
    const entry: Entry = { key, json, builtAt: t, expiresAt, encoded: {} };
    if (seen === generation) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, entry);
    }
    return entry;
  }

  return {
    ...catalog,
    /**
     * Drops every cached market answer here and on every other replica (call after commit);
     * `discounts` when discount rules changed, so every replica reloads them too.
     */
    invalidate(opts: { discounts?: boolean } = {}) {
      dropLocal(opts.discounts === true);
      if (pending) {
        pending.discounts ||= opts.discounts === true;
        return;
      }
      const timer = setTimeout(() => void flush(), NOTIFY_COALESCE_MS);
      timer.unref();
      pending = { discounts: opts.discounts === true, timer };
    },
    /**
     * The answer to a request whose raw query string was answered before, while still current,
     * without waiting: null when it must be built (or compressed) first. Lets the route answer a
     * repeated URL before parsing and validating its query again (issue 15).
     */
    cached(tenant: TenantRecord, rawQuery: string, acceptEncoding?: string): MarketAnswer | null {
      const entry = byRaw(rawKey(tenant, rawQuery));
      if (!entry) return null;
      const encoding = encodingFor(entry, acceptEncoding);
      if (!encoding) return { body: entry.json, encoding: null };
      const body = entry.encoded[encoding];
      return Buffer.isBuffer(body) ? { body, encoding } : null;
    },
    /**
     * The whole answer of GET /api/gpu/market as JSON bytes (the envelope included), compressed
     * when the client accepts br or gzip: made once per cached answer, so a browser's request
     * costs no compression and a fraction of the bytes.
     */
    async listJson(
      tenant: TenantRecord,
      q: MarketQuery,
      request: { acceptEncoding?: string; rawQuery: string },
    ): Promise<MarketAnswer> {
      const raw = rawKey(tenant, request.rawQuery);
      let entry = byRaw(raw);
      if (!entry) {
        entry = await answer(tenant, q);
        if (entries.get(entry.key) === entry) {
          if (byRawQuery.size >= MAX_ENTRIES) byRawQuery.clear();
          byRawQuery.set(raw, entry);
        }
      }
      const encoding = encodingFor(entry, request.acceptEncoding);
      if (!encoding) return { body: entry.json, encoding: null };
      const made = entry;
      made.encoded[encoding] ??= encode(made.json, encoding).then((body) => {
        made.encoded[encoding] = body;
        return body;
      });
      try {
        return { body: await made.encoded[encoding], encoding };
      } catch (err) {
        // Never fails an answer: this one goes out as it is, the next request tries again.
        delete made.encoded[encoding];
        log.warn({ err, encoding }, 'market: compressing an answer failed');
        return { body: made.json, encoding: null };
      }
    },
    /** Starts hearing other replicas' invalidations (registerMarket; stopped on close). */
    async start() {
      stopListening = await database.listen(
        MARKET_CHANNEL,
        (payload) => {
          const withDiscounts = payload.endsWith(DISCOUNTS_TOO);
          const from = withDiscounts ? payload.slice(0, -DISCOUNTS_TOO.length) : payload;
          if (from !== origin) dropLocal(withDiscounts);
        },
        // Reconnected: anything may have changed meanwhile.
        () => dropLocal(true),
      );
    },
    async stop() {
      await flush();
      await stopListening?.();
      stopListening = null;
    },
  };
}
