import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shouldRetrySync, startMarketSync } from './market-sync';

/** A promise settled from outside, to see what happens between steps. */
function deferred<T = unknown>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('shouldRetrySync (SPEC.md §4: fewer than 10 items)', () => {
  it('retries below 10 items, also before any answer', () => {
    expect(shouldRetrySync(undefined)).toBe(true);
    expect(shouldRetrySync(0)).toBe(true);
    expect(shouldRetrySync(9)).toBe(true);
    expect(shouldRetrySync(10)).toBe(false);
    expect(shouldRetrySync(48)).toBe(false);
  });
});

describe('startMarketSync', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(count: number | undefined) {
    const calls: string[] = [];
    const syncs: ReturnType<typeof deferred>[] = [];
    const deps = {
      sync: vi.fn(() => {
        calls.push('sync');
        const d = deferred();
        syncs.push(d);
        return d.promise;
      }),
      reload: vi.fn(async () => {
        calls.push('reload');
      }),
      itemCount: vi.fn(() => count),
      onSyncingChange: vi.fn((syncing: boolean) => calls.push(syncing ? 'syncing' : 'idle')),
    };
    return { deps, calls, syncs };
  }

  it('syncs in the background, reloads after success, and syncs again after 30 s with fewer than 10 items', async () => {
    const { deps, calls, syncs } = setup(6);
    const stop = startMarketSync(deps);
    expect(calls).toEqual(['syncing', 'sync']);

    syncs[0]?.resolve({ synced: true });
    await flush();
    expect(calls).toEqual(['syncing', 'sync', 'reload', 'idle']);

    await vi.advanceTimersByTimeAsync(29_999);
    expect(deps.sync).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.sync).toHaveBeenCalledTimes(2);
    syncs[1]?.resolve({ synced: true });
    await flush();
    expect(calls).toEqual(['syncing', 'sync', 'reload', 'idle', 'syncing', 'sync', 'reload', 'idle']);

    // only once
    await vi.advanceTimersByTimeAsync(120_000);
    expect(deps.sync).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does not sync again when 10 or more items show after 30 s', async () => {
    const { deps, syncs } = setup(12);
    const stop = startMarketSync(deps);
    syncs[0]?.resolve({});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(deps.sync).toHaveBeenCalledTimes(1);
    expect(deps.itemCount).toHaveBeenCalledTimes(1);
    stop();
  });

  it('reads the item count when the 30 s are up, not at the start', async () => {
    let count = 3;
    const { deps, syncs } = setup(undefined);
    deps.itemCount.mockImplementation(() => count);
    const stop = startMarketSync(deps);
    syncs[0]?.resolve({});
    count = 10; // the reload after the sync brought more
    await vi.advanceTimersByTimeAsync(30_000);
    expect(deps.sync).toHaveBeenCalledTimes(1);
    stop();
  });

  it('ignores a failed sync (no reload, no error) and still retries after 30 s', async () => {
    const { deps, calls, syncs } = setup(2);
    const stop = startMarketSync(deps);
    syncs[0]?.reject(new Error('offline'));
    await flush();
    expect(deps.reload).not.toHaveBeenCalled();
    expect(calls).toEqual(['syncing', 'sync', 'idle']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(deps.sync).toHaveBeenCalledTimes(2);
    syncs[1]?.resolve({});
    await flush();
    expect(deps.reload).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stops: no retry timer, no reload or indicator change after leaving the page', async () => {
    const { deps, calls, syncs } = setup(0);
    const stop = startMarketSync(deps);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    syncs[0]?.resolve({});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.sync).toHaveBeenCalledTimes(1);
    expect(calls).toEqual(['syncing', 'sync']);
  });
});
