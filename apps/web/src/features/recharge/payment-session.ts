import { PAYMENT_COUNTDOWN_S, PAYMENT_POLL_MAX, PAYMENT_POLL_MS } from '@gpu/shared/constants';

/**
 * The QR payment's state machine of SPEC.md §4, free of React and of the network so it can be
 * driven by fake timers: a 600 s countdown and a status poll every 1 s, at most 300 polls.
 *
 *   polling ──SUCCESS──▶ done(success)      polling ──other code──▶ halted(error)
 *   polling ──FAIL─────▶ done(fail)         polling ──no answer───▶ halted(networkError)
 *   polling ──300th PENDING──▶ done(timeout)  halted ──checkNow──▶ polling
 *   any ──stop()──▶ stopped (timers cleared, the request in flight aborted and ignored)
 *
 * Polls never overlap: the next one is scheduled when the previous one answered. The
 * countdown runs on its own (against a deadline, so a throttled tab does not slow it) until
 * it reaches zero, the session ends or it is stopped.
 */

/** What one status check answered. */
export type StatusAnswer =
  /** The call succeeded with code '200'; `status` is the envelope's data. */
  | { kind: 'status'; status: string }
  /** The server answered another code. */
  | { kind: 'code'; code: string }
  /** No answer (network error, timeout). */
  | { kind: 'network' };

export type PaymentOutcome = 'success' | 'fail' | 'timeout' | 'error' | 'networkError';

export type PaymentPhase = 'polling' | 'halted' | 'done' | 'stopped';

export interface PaymentSessionOptions {
  checkStatus: (signal: AbortSignal) => Promise<StatusAnswer>;
  /** success, fail and timeout end the session; error and networkError halt the polling. */
  onOutcome: (outcome: PaymentOutcome) => void;
  /** Seconds left, after each countdown step. */
  onTick?: (secondsLeft: number) => void;
  onCountdownEnd?: () => void;
  onPhase?: (phase: PaymentPhase) => void;
  countdownS?: number;
  pollMs?: number;
  pollMax?: number;
  now?: () => number;
}

export interface PaymentSession {
  /** Starts the countdown and schedules the first poll one interval later. */
  start(): void;
  /** "I have paid": checks at once (and resumes a halted poll); ignored while a check runs. */
  checkNow(): void;
  /** Leaving the view or the page: clears every timer, drops the answer in flight. */
  stop(): void;
  readonly phase: PaymentPhase;
  readonly polls: number;
  readonly secondsLeft: number;
}

export function createPaymentSession(options: PaymentSessionOptions): PaymentSession {
  const {
    checkStatus,
    onOutcome,
    onTick,
    onCountdownEnd,
    onPhase,
    countdownS = PAYMENT_COUNTDOWN_S,
    pollMs = PAYMENT_POLL_MS,
    pollMax = PAYMENT_POLL_MAX,
    now = Date.now,
  } = options;

  let phase: PaymentPhase = 'polling';
  let polls = 0;
  let secondsLeft = countdownS;
  let deadline = 0;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let countdownTimer: ReturnType<typeof setInterval> | undefined;
  let inFlight: AbortController | null = null;
  let started = false;

  const setPhase = (next: PaymentPhase) => {
    if (phase === next) return;
    phase = next;
    onPhase?.(next);
  };

  const clearPoll = () => {
    clearTimeout(pollTimer);
    pollTimer = undefined;
  };
  const clearCountdown = () => {
    clearInterval(countdownTimer);
    countdownTimer = undefined;
  };

  const schedule = () => {
    clearPoll();
    pollTimer = setTimeout(poll, pollMs);
  };

  /** success, fail, timeout: the session is over. */
  const finish = (outcome: 'success' | 'fail' | 'timeout') => {
    clearPoll();
    clearCountdown();
    setPhase('done');
    onOutcome(outcome);
  };

  /** error, networkError: polling stops; the QR and its countdown stay. */
  const halt = (outcome: 'error' | 'networkError') => {
    clearPoll();
    setPhase('halted');
    onOutcome(outcome);
  };

  async function poll() {
    if (phase !== 'polling' || inFlight) return;
    clearPoll();
    const controller = new AbortController();
    inFlight = controller;
    polls += 1;
    let answer: StatusAnswer;
    try {
      answer = await checkStatus(controller.signal);
    } catch {
      answer = { kind: 'network' };
    }
    if (inFlight === controller) inFlight = null;
    if (phase !== 'polling' || controller.signal.aborted) return; // stopped meanwhile

    if (answer.kind === 'network') return halt('networkError');
    if (answer.kind === 'code') return halt('error');
    if (answer.status === 'SUCCESS') return finish('success');
    if (answer.status === 'FAIL') return finish('fail');
    // Anything else is pending (SPEC.md §3).
    if (polls >= pollMax) return finish('timeout');
    schedule();
  }

  const tick = () => {
    secondsLeft = Math.max(0, Math.ceil((deadline - now()) / 1000));
    onTick?.(secondsLeft);
    if (secondsLeft === 0) {
      clearCountdown();
      onCountdownEnd?.();
    }
  };

  return {
    start() {
      if (started) return;
      started = true;
      deadline = now() + countdownS * 1000;
      countdownTimer = setInterval(tick, 1000);
      schedule();
    },
    checkNow() {
      if (!started || inFlight) return;
      if (phase === 'halted') setPhase('polling');
      if (phase === 'polling') void poll();
    },
    stop() {
      clearPoll();
      clearCountdown();
      inFlight?.abort();
      inFlight = null;
      setPhase('stopped');
    },
    get phase() {
      return phase;
    },
    get polls() {
      return polls;
    },
    get secondsLeft() {
      return secondsLeft;
    },
  };
}
