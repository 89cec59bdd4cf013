import { APP_EVENTS, BALANCE_REFRESH_DELAY_MS } from '@gpu/shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitAppEvent, onAppEvent } from '../../lib/app-events';
import { billingKeys } from '../billing/api/keys';
import { useBalanceEventRefresh } from '../billing/use-balance-event-refresh';
import type { StatusAnswer } from './payment-session';
import { usePaymentSession } from './use-payment-session';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('usePaymentSession', () => {
  it('counts down and polls while an order is set; success ends it', async () => {
    const answers: StatusAnswer[] = [
      { kind: 'status', status: 'PENDING' },
      { kind: 'status', status: 'SUCCESS' },
    ];
    const checkStatus = vi.fn(
      async (_no: string, _signal: AbortSignal): Promise<StatusAnswer> =>
        answers.shift() ?? { kind: 'status', status: 'PENDING' },
    );
    const onOutcome = vi.fn();
    const { result } = renderHook(() =>
      usePaymentSession('R1', { checkStatus, onOutcome, onCountdownEnd: vi.fn() }),
    );
    expect(result.current.secondsLeft).toBe(600);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.secondsLeft).toBe(599);
    expect(checkStatus).toHaveBeenCalledWith('R1', expect.any(AbortSignal));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('success');
    expect(result.current.phase).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does nothing without an order; clearing the order or unmounting clears the timers', async () => {
    const checkStatus = vi.fn(async () => ({ kind: 'status', status: 'PENDING' }) as StatusAnswer);
    const onOutcome = vi.fn();
    const { rerender, unmount } = renderHook(
      ({ orderNo }: { orderNo: string | null }) =>
        usePaymentSession(orderNo, { checkStatus, onOutcome, onCountdownEnd: vi.fn() }),
      { initialProps: { orderNo: null as string | null } },
    );
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(checkStatus).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);

    rerender({ orderNo: 'R1' });
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(checkStatus).toHaveBeenCalledTimes(3);
    rerender({ orderNo: null }); // Back
    expect(vi.getTimerCount()).toBe(0);

    rerender({ orderNo: 'R2' }); // a new order starts afresh
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(checkStatus).toHaveBeenLastCalledWith('R2', expect.any(AbortSignal));
    unmount(); // leaving the page
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(700_000);
    expect(checkStatus).toHaveBeenCalledTimes(4);
    expect(onOutcome).not.toHaveBeenCalled();
  });

  it('uses the latest handlers and reports the countdown end', async () => {
    const checkStatus = vi.fn(async () => ({ kind: 'code', code: '500' }) as StatusAnswer);
    const first = vi.fn();
    const second = vi.fn();
    const onCountdownEnd = vi.fn();
    const { rerender, result } = renderHook(
      ({ onOutcome }: { onOutcome: () => void }) =>
        usePaymentSession('R1', { checkStatus, onOutcome, onCountdownEnd }),
      { initialProps: { onOutcome: first } },
    );
    rerender({ onOutcome: second });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('error');
    expect(result.current.phase).toBe('halted');
    await act(() => vi.advanceTimersByTimeAsync(600_000));
    expect(result.current.secondsLeft).toBe(0);
    expect(onCountdownEnd).toHaveBeenCalledTimes(1);
  });
});

describe('balance events', () => {
  it('carry their detail to listeners until they stop listening', () => {
    const listener = vi.fn();
    const stop = onAppEvent(APP_EVENTS.balance, listener);
    emitAppEvent(APP_EVENTS.balance, { amount: 200 });
    expect(listener).toHaveBeenCalledWith({ amount: 200 });
    stop();
    emitAppEvent(APP_EVENTS.balance);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('refresh the balance 500 ms after the (last) event, and stop on unmount', async () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useBalanceEventRefresh(), { wrapper });
    emitAppEvent(APP_EVENTS.balance);
    await vi.advanceTimersByTimeAsync(300);
    emitAppEvent(APP_EVENTS.balance); // within the delay: one refresh
    await vi.advanceTimersByTimeAsync(BALANCE_REFRESH_DELAY_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(invalidate).toHaveBeenCalledExactlyOnceWith({ queryKey: billingKeys.balance() });

    emitAppEvent(APP_EVENTS.balance);
    unmount();
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
