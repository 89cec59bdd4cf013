import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { remainingSeconds, useCooldown } from './use-cooldown';

describe('remainingSeconds', () => {
  it('rounds up and never goes below zero', () => {
    expect(remainingSeconds(null, 0)).toBe(0);
    expect(remainingSeconds(60_000, 0)).toBe(60);
    expect(remainingSeconds(60_000, 1)).toBe(60);
    expect(remainingSeconds(60_000, 1_000)).toBe(59);
    expect(remainingSeconds(60_000, 59_999)).toBe(1);
    expect(remainingSeconds(60_000, 60_000)).toBe(0);
    expect(remainingSeconds(60_000, 90_000)).toBe(0);
  });
});

describe('useCooldown', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('counts 60 s down once started, then ends', () => {
    const { result } = renderHook(() => useCooldown());
    expect(result.current).toMatchObject({ remaining: 0, active: false });
    act(() => result.current.start());
    expect(result.current).toMatchObject({ remaining: 60, active: true });
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current.remaining).toBe(59);
    act(() => vi.advanceTimersByTime(58_000));
    expect(result.current).toMatchObject({ remaining: 1, active: true });
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toMatchObject({ remaining: 0, active: false });
    // the interval is gone once it ended
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts with the seconds given (a 429 names the wait) and can restart', () => {
    const { result } = renderHook(() => useCooldown());
    act(() => result.current.start(5));
    expect(result.current.remaining).toBe(5);
    act(() => vi.advanceTimersByTime(3_000));
    expect(result.current.remaining).toBe(2);
    act(() => result.current.start(10));
    expect(result.current.remaining).toBe(10);
  });

  it('follows the clock even when ticks come late (throttled background tab)', () => {
    const { result } = renderHook(() => useCooldown());
    act(() => result.current.start());
    act(() => {
      vi.setSystemTime(Date.now() + 30_500);
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current.remaining).toBe(29);
  });

  it('stops its timer when the page is left', () => {
    const { result, unmount } = renderHook(() => useCooldown());
    act(() => result.current.start());
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
