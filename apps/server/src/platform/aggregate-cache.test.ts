import { describe, expect, it } from 'vitest';
import { createAggregateCache } from './aggregate-cache.ts';

describe('short-lived aggregates', () => {
  const setup = (ttlMs: number) => {
    let now = 1_000_000;
    let computed = 0;
    const cache = createAggregateCache({ ttlMs, now: () => new Date(now) });
    const compute = async () => ++computed;
    return { cache, compute, advance: (ms: number) => (now += ms), computed: () => computed };
  };

  it('reuses figures within the TTL and says when they were computed', async () => {
    const s = setup(30_000);
    const a = await s.cache.get('k', s.compute);
    s.advance(29_000);
    const b = await s.cache.get('k', s.compute);
    expect(b).toEqual(a);
    expect(s.computed()).toBe(1);
    expect(b.computedAt.getTime()).toBe(1_000_000);
    expect((await s.cache.get('other', s.compute)).value).toBe(2);
  });

  it('answers stale figures at once and refreshes once behind them', async () => {
    const s = setup(30_000);
    await s.cache.get('k', s.compute);
    s.advance(31_000);
    const [x, y] = await Promise.all([s.cache.get('k', s.compute), s.cache.get('k', s.compute)]);
    expect([x.value, y.value]).toEqual([1, 1]);
    await new Promise((r) => setImmediate(r));
    expect(s.computed()).toBe(2);
    const fresh = await s.cache.get('k', s.compute);
    expect(fresh.value).toBe(2);
    expect(fresh.computedAt.getTime()).toBe(1_031_000);
  });

  it('computes a missing key once for concurrent callers, and keeps the last good figures on failure', async () => {
    const s = setup(30_000);
    const [a, b] = await Promise.all([s.cache.get('k', s.compute), s.cache.get('k', s.compute)]);
    expect([a.value, b.value, s.computed()]).toEqual([1, 1, 1]);
    s.advance(31_000);
    const failing = async (): Promise<number> => {
      throw new Error('database away');
    };
    expect((await s.cache.get('k', failing)).value).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect((await s.cache.get('k', s.compute)).value).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect((await s.cache.get('k', s.compute)).value).toBe(2);
  });

  it('TTL 0 computes on every call', async () => {
    const s = setup(0);
    await s.cache.get('k', s.compute);
    await s.cache.get('k', s.compute);
    expect(s.computed()).toBe(2);
  });
});
