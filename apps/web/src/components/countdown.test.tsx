import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from './Countdown';
import { countdownTickMs } from './countdown';

const S = 1000;
const MIN = 60 * S;

describe('countdownTickMs (SPEC.md §9: every 30 s, every 1 s under 2 minutes)', () => {
  it('ticks every 30 s while more than 2 minutes remain', () => {
    expect(countdownTickMs(10 * MIN)).toBe(30 * S);
    expect(countdownTickMs(30 * 24 * 60 * MIN)).toBe(30 * S);
    expect(countdownTickMs(2 * MIN + 30 * S)).toBe(30 * S);
  });

  it('never steps over the 2-minute mark with a slow tick', () => {
    expect(countdownTickMs(2 * MIN + 10 * S)).toBe(10 * S);
    expect(countdownTickMs(2 * MIN + 1)).toBe(1);
  });

  it('ticks every second (on whole seconds) once 2 minutes or less remain', () => {
    expect(countdownTickMs(2 * MIN)).toBe(S);
    expect(countdownTickMs(90 * S)).toBe(S);
    expect(countdownTickMs(90 * S + 250)).toBe(250);
    expect(countdownTickMs(400)).toBe(400);
  });

  it('stops once ended', () => {
    expect(countdownTickMs(0)).toBe(0);
    expect(countdownTickMs(-5)).toBe(0);
  });
});

/** Advances the clock in 1-second steps, letting React render (and re-arm its timer) between them. */
function elapse(ms: number) {
  for (let left = ms; left > 0; left -= S) act(() => vi.advanceTimersByTime(Math.min(S, left)));
}

describe('<Countdown>', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('re-renders on the 30 s tick, then every second, and calls onExpire once at the end', () => {
    const onExpire = vi.fn();
    const end = Date.now() + 3 * MIN + 15 * S;
    render(<Countdown endTime={new Date(end).toISOString()} onExpire={onExpire} />);
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('3分钟');

    // 29 s later nothing has re-rendered yet (slow tick), though the minute changed.
    act(() => vi.advanceTimersByTime(29 * S));
    expect(timer.textContent).toBe('3分钟');
    act(() => vi.advanceTimersByTime(1 * S)); // 30 s: 2:45 left
    expect(timer.textContent).toBe('2分钟');
    act(() => vi.advanceTimersByTime(30 * S)); // 2:15 left
    expect(timer.textContent).toBe('2分钟');
    act(() => vi.advanceTimersByTime(15 * S)); // exactly 2:00: the fast tick starts
    expect(timer.textContent).toBe('02:00');
    act(() => vi.advanceTimersByTime(1 * S));
    expect(timer.textContent).toBe('01:59');
    elapse(58 * S);
    expect(timer.textContent).toBe('01:01');
    expect(onExpire).not.toHaveBeenCalled();

    elapse(60 * S);
    expect(timer.textContent).toBe('00:01');
    expect(onExpire).not.toHaveBeenCalled();
    elapse(S);
    expect(timer.textContent).toBe('已结束');
    expect(onExpire).toHaveBeenCalledTimes(1);
    elapse(10 * MIN);
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports an end that has already passed right away', () => {
    const onExpire = vi.fn();
    render(<Countdown endTime={Date.now() - S} onExpire={onExpire} />);
    expect(screen.getByRole('timer').textContent).toBe('已结束');
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('leaves no timer behind when unmounted', () => {
    const { unmount } = render(<Countdown endTime={Date.now() + 10 * MIN} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
