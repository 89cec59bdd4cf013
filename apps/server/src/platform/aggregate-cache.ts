import type { Now } from './clock.ts';

export interface Aggregate<T> {
  value: T;
  /** When the figures were computed: the screens show it, so staleness is never hidden. */
  computedAt: Date;
}

/**
 * Short-lived figures over whole large tables (admin statistics, issue 33): each key is computed
 * at most once per `ttlMs` in this process, and a stale value is answered at once while one
 * refresh runs behind it (stale-while-revalidate), so no request waits on a full aggregate
 * except the very first of a key. Per process on purpose: every replica keeps its own copy, so
 * nothing is shared that could go wrong, and each is at most `ttlMs` (plus one computation) old.
 * `ttlMs` 0 computes on every call (tests that read figures right after writing them).
 */
export function createAggregateCache(opts: { ttlMs: number; now: Now; maxKeys?: number }) {
  const maxKeys = opts.maxKeys ?? 500;
  const entries = new Map<string, { value?: Aggregate<unknown>; pending?: Promise<Aggregate<unknown>> }>();

  const refresh = <T>(key: string, compute: () => Promise<T>): Promise<Aggregate<T>> => {
    const entry = entries.get(key) ?? {};
    if (entry.pending) return entry.pending as Promise<Aggregate<T>>;
    const computedAt = opts.now();
    const pending = compute().then(
      (value) => {
        entries.set(key, { value: { value, computedAt } });
        return { value, computedAt };
      },
      (err: unknown) => {
        // A failed refresh keeps the last good figures; the next call tries again.
        const e = entries.get(key);
        if (e) delete e.pending;
        throw err;
      },
    );
    if (!entries.has(key) && entries.size >= maxKeys) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { ...entry, pending });
    return pending;
  };

  return {
    async get<T>(key: string, compute: () => Promise<T>): Promise<Aggregate<T>> {
      if (opts.ttlMs <= 0) return { value: await compute(), computedAt: opts.now() };
      const cached = entries.get(key)?.value as Aggregate<T> | undefined;
      if (!cached) return refresh(key, compute);
      if (opts.now().getTime() - cached.computedAt.getTime() >= opts.ttlMs) {
        // Answer the stale figures now; the refresh's failure is the next caller's to see.
        refresh(key, compute).catch(() => undefined);
      }
      return cached;
    },
  };
}

export type AggregateCache = ReturnType<typeof createAggregateCache>;
