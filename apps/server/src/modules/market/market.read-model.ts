import { randomUUID } from 'node:crypto';
import { envelopeSchema, type MarketQuery, marketListSchema } from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../app/db/client.ts';
import { ok } from '../../app/plugins/envelope.ts';
import type { DiscountService } from '../discounts/discounts.usecases.ts';
import type { TenantRecord } from '../tenants/tenants.repository.ts';
import type { MarketCatalog } from './market.usecases.ts';

/** PostgreSQL channel on which a replica says "the market changed" (payload: its origin id). */
export const MARKET_CHANNEL = 'market_changed';
/** A safety net for changes that bypass invalidate() (a hand edit in psql); not the mechanism. */
const MAX_AGE_MS = 30_000;
/** Distinct queries kept per process before starting afresh (keyword searches are unbounded). */
const MAX_ENTRIES = 2_000;

const listAnswer = envelopeSchema(marketListSchema);

export type MarketReadModel = ReturnType<typeof createMarketReadModel>;

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
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const origin = randomUUID();
  const entries = new Map<string, { json: Buffer; builtAt: number; expiresAt: number }>();
  // Bumped by every invalidation: an answer computed across one is not kept (it may be stale).
  let generation = 0;
  let stopListening: (() => Promise<void>) | null = null;

  const dropLocal = () => {
    generation++;
    entries.clear();
    catalog.invalidate();
    discounts.invalidate();
  };

  /** The next instant a discount of the tenant starts or ends: the answer changes then. */
  async function nextBoundary(tenantId: number, t: number) {
    let next = t + MAX_AGE_MS;
    for (const r of await discounts.rulesFor(tenantId)) {
      for (const at of [r.startsAt.getTime(), r.endsAt.getTime()]) if (at > t && at < next) next = at;
    }
    return next;
  }

  return {
    ...catalog,
    /** Drops every cached market answer here and on every other replica (call after commit). */
    invalidate() {
      dropLocal();
      database.notify(MARKET_CHANNEL, origin).catch((err: unknown) => {
        log.warn({ err }, 'market: telling other replicas failed; they catch up within 30 s');
      });
    },
    /** The whole answer of GET /api/gpu/market as JSON bytes (the envelope included). */
    async listJson(tenant: TenantRecord, q: MarketQuery): Promise<Buffer> {
      const key = `${tenant.id}|${JSON.stringify(q, Object.keys(q).sort())}`;
      const t = now().getTime();
      const hit = entries.get(key);
      if (hit && t < hit.expiresAt && t >= hit.builtAt) return hit.json;
      const seen = generation;
      const [list, expiresAt] = await Promise.all([catalog.list(tenant, q), nextBoundary(tenant.id, t)]);
      // Checked once here, as the response schema would check every answer.
      const json = Buffer.from(JSON.stringify(listAnswer.parse(ok(list))));
      if (seen === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, { json, builtAt: t, expiresAt });
      }
      return json;
    },
    /** Starts hearing other replicas' invalidations (registerMarket; stopped on close). */
    async start() {
      stopListening = await database.listen(
        MARKET_CHANNEL,
        (from) => {
          if (from !== origin) dropLocal();
        },
        dropLocal,
      );
    },
    async stop() {
      await stopListening?.();
      stopListening = null;
    },
  };
}
