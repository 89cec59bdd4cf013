import { PAYMENT_COUNTDOWN_S, PAYMENT_POLL_MAX, PAYMENT_POLL_MS } from '@gpu/shared/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPaymentSession, type PaymentSessionOptions, type StatusAnswer } from './payment-session';

const PENDING: StatusAnswer = { kind: 'status', status: 'PENDING' };
const SUCCESS: StatusAnswer = { kind: 'status', status: 'SUCCESS' };
const FAIL: StatusAnswer = { kind: 'status', status: 'FAIL' };

/** A session whose status check answers from `answers` in turn (the last one repeats). */
function setup(
  answers: StatusAnswer[] | ((n: number) => Promise<StatusAnswer>),
  extra?: Partial<PaymentSessionOptions>,
) {
  const checkStatus = vi.fn(async (_signal: AbortSignal) => {
    const n = checkStatus.mock.calls.length;
    if (typeof answers === 'function') return answers(n);
    return answers[Math.min(n - 1, answers.length - 1)] as StatusAnswer;
  });
  const onOutcome = vi.fn();
  const onCountdownEnd = vi.fn();
  const onTick = vi.fn();
  const session = createPaymentSession({ checkStatus, onOutcome, onCountdownEnd, onTick, ...extra });
  return { session, checkStatus, onOutcome, onCountdownEnd, onTick };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('payment session', () => {
  it('uses the SPEC constants: 600 s countdown, a poll every 1 s, at most 300', () => {
    expect([PAYMENT_COUNTDOWN_S, PAYMENT_POLL_MS, PAYMENT_POLL_MAX]).toEqual([600, 1000, 300]);
  });

  it('polls every second while pending, then stops on SUCCESS', async () => {
    const { session, checkStatus, onOutcome } = setup([PENDING, PENDING, SUCCESS]);
    session.start();
    expect(checkStatus).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(checkStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(checkStatus).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(checkStatus).toHaveBeenCalledTimes(3);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('success');
    expect(session.phase).toBe('done');
    // stopped: no more polls, no countdown
    await vi.advanceTimersByTimeAsync(10_000);
    expect(checkStatus).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops on FAIL with the fail outcome', async () => {
    const { session, checkStatus, onOutcome } = setup([PENDING, FAIL]);
    session.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(checkStatus).toHaveBeenCalledTimes(2);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('fail');
    expect(session.phase).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('treats any other data as pending', async () => {
    const { session, checkStatus, onOutcome } = setup([
      { kind: 'status', status: 'WAIT_BUYER_PAY' },
      { kind: 'status', status: '' },
      SUCCESS,
    ]);
    session.start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(checkStatus).toHaveBeenCalledTimes(3);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('success');
  });

  it('times out after the 300th pending poll', async () => {
    const { session, checkStatus, onOutcome, onCountdownEnd } = setup([PENDING]);
    session.start();
    await vi.advanceTimersByTimeAsync(299 * 1000);
    expect(checkStatus).toHaveBeenCalledTimes(299);
    expect(onOutcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(checkStatus).toHaveBeenCalledTimes(300);
    expect(session.polls).toBe(300);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('timeout');
    expect(session.phase).toBe('done');
    await vi.advanceTimersByTimeAsync(400_000);
    expect(checkStatus).toHaveBeenCalledTimes(300);
    expect(onCountdownEnd).not.toHaveBeenCalled(); // the session ended first
  });

  it('halts with networkError when no answer arrives (and when the check throws)', async () => {
    const { session, checkStatus, onOutcome } = setup([PENDING, { kind: 'network' }]);
    session.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(checkStatus).toHaveBeenCalledTimes(2);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('networkError');
    expect(session.phase).toBe('halted');

    const thrown = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    thrown.session.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(thrown.onOutcome).toHaveBeenCalledExactlyOnceWith('networkError');
    thrown.session.stop();
    session.stop();
  });

  it('halts with error on another response code; the countdown keeps running', async () => {
    const { session, checkStatus, onOutcome, onTick } = setup([{ kind: 'code', code: '500' }]);
    session.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('error');
    await vi.advanceTimersByTimeAsync(5000);
    expect(checkStatus).toHaveBeenCalledTimes(1);
    expect(onTick).toHaveBeenLastCalledWith(PAYMENT_COUNTDOWN_S - 6);
    session.stop();
  });

  it('"I have paid" checks at once, and resumes a halted poll', async () => {
    const { session, checkStatus, onOutcome } = setup([{ kind: 'network' }, PENDING, SUCCESS]);
    session.checkNow(); // before start: nothing
    expect(checkStatus).not.toHaveBeenCalled();
    session.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onOutcome).toHaveBeenLastCalledWith('networkError');
    session.checkNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(checkStatus).toHaveBeenCalledTimes(2);
    expect(session.phase).toBe('polling');
    session.checkNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(checkStatus).toHaveBeenCalledTimes(3);
    expect(onOutcome).toHaveBeenLastCalledWith('success');
    session.checkNow(); // done: ignored
    await vi.advanceTimersByTimeAsync(2000);
    expect(checkStatus).toHaveBeenCalledTimes(3);
  });

  it('never overlaps polls: a slow answer delays the next one, checkNow waits for it', async () => {
    let release: (a: StatusAnswer) => void = () => {};
    const { session, checkStatus } = setup(
      () =>
        new Promise<StatusAnswer>((resolve) => {
          release = resolve;
        }),
    );
    session.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(checkStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    session.checkNow();
    expect(checkStatus).toHaveBeenCalledTimes(1);
    release(PENDING);
    await vi.advanceTimersByTimeAsync(999);
    expect(checkStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(checkStatus).toHaveBeenCalledTimes(2);
    session.stop();
  });

  it('counts down from 600 and reports its end once', async () => {
    const { session, onTick, onCountdownEnd, onOutcome } = setup([{ kind: 'code', code: '500' }]);
    session.start();
    expect(session.secondsLeft).toBe(600);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onTick).toHaveBeenLastCalledWith(599);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(session.secondsLeft).toBe(540);
    await vi.advanceTimersByTimeAsync(540_000);
    expect(session.secondsLeft).toBe(0);
    expect(onCountdownEnd).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onCountdownEnd).toHaveBeenCalledTimes(1);
    expect(onOutcome).toHaveBeenCalledExactlyOnceWith('error');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends the countdown on time even when the timers run late (a throttled tab)', async () => {
    const { session, onCountdownEnd } = setup([{ kind: 'code', code: '500' }], { countdownS: 10 });
    session.start();
    await vi.advanceTimersByTimeAsync(1000);
    vi.setSystemTime(Date.now() + 20_000); // the clock jumps; one more tick sees the deadline
    await vi.advanceTimersByTimeAsync(1000);
    expect(session.secondsLeft).toBe(0);
    expect(onCountdownEnd).toHaveBeenCalledTimes(1);
  });

  it('stop() clears every timer and ignores the answer in flight', async () => {
    let release: (a: StatusAnswer) => void = () => {};
    let signal: AbortSignal | undefined;
    const checkStatus = vi.fn(
      (s: AbortSignal) =>
        new Promise<StatusAnswer>((resolve) => {
          signal = s;
          release = resolve;
        }),
    );
    const onOutcome = vi.fn();
    const onCountdownEnd = vi.fn();
    const session = createPaymentSession({ checkStatus, onOutcome, onCountdownEnd });
    session.start();
    expect(vi.getTimerCount()).toBe(2); // countdown and first poll
    await vi.advanceTimersByTimeAsync(1000);
    session.stop();
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    release(SUCCESS);
    await vi.advanceTimersByTimeAsync(700_000);
    expect(onOutcome).not.toHaveBeenCalled();
    expect(onCountdownEnd).not.toHaveBeenCalled();
    expect(checkStatus).toHaveBeenCalledTimes(1);
    expect(session.phase).toBe('stopped');
    session.checkNow();
    expect(checkStatus).toHaveBeenCalledTimes(1);
  });
});
