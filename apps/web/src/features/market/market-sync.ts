import { MARKET_RETRY_MIN_ITEMS, MARKET_RETRY_SYNC_MS } from '@gpu/shared/constants';

/** SPEC.md §4/§9: a second sync is attempted when the market shows fewer than 10 items. */
export const shouldRetrySync = (itemCount: number | undefined) => (itemCount ?? 0) < MARKET_RETRY_MIN_ITEMS;

export interface MarketSyncDeps {
  /** POST /api/gpu/sync. */
  sync: () => Promise<unknown>;
  /** Reloads the market list (after a successful sync). */
  reload: () => Promise<unknown>;
  /** How many items the market shows now (undefined before the first answer). */
  itemCount: () => number | undefined;
  /** True while a background sync (and the reload after it) runs. */
  onSyncingChange?: (syncing: boolean) => void;
}

/**
 * The market's background sync (SPEC.md §4): the list loads first (the caller's query), then
 * a sync runs in the background and the list reloads after it succeeds; 30 s after the start,
 * if fewer than 10 items show, one more sync is attempted. Failures are ignored (SPEC.md §8:
 * market loading errors are silent). Answers a stop function that cancels the timer and
 * any reload still to come.
 */
export function startMarketSync(deps: MarketSyncDeps): () => void {
  let stopped = false;
  let running = 0;

  const run = async () => {
    running += 1;
    if (running === 1) deps.onSyncingChange?.(true);
    try {
      await deps.sync();
      if (!stopped) await deps.reload();
    } catch {
      // silent (SPEC.md §8)
    } finally {
      running -= 1;
      if (running === 0 && !stopped) deps.onSyncingChange?.(false);
    }
  };

  void run();
  const retry = setTimeout(() => {
    if (!stopped && shouldRetrySync(deps.itemCount())) void run();
  }, MARKET_RETRY_SYNC_MS);

  return () => {
    stopped = true;
    clearTimeout(retry);
  };
}
