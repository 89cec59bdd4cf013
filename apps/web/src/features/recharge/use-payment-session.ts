import { PAYMENT_COUNTDOWN_S } from '@gpu/shared/constants';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { getPaymentStatus } from './api/get-payment-status';
import {
  createPaymentSession,
  type PaymentOutcome,
  type PaymentPhase,
  type PaymentSession,
  type StatusAnswer,
} from './payment-session';

export interface PaymentSessionHandlers {
  onOutcome: (outcome: PaymentOutcome) => void;
  onCountdownEnd: () => void;
}

export interface UsePaymentSessionOptions extends PaymentSessionHandlers {
  /** Tests hand in a fake; the page uses GET /pay/status. */
  checkStatus?: (orderNo: string, signal: AbortSignal) => Promise<StatusAnswer>;
}

/**
 * Runs a payment session (countdown and status polling) while `orderNo` is set; a new order
 * starts a new one, and unmounting or clearing the order stops it (timers cleared).
 */
export function usePaymentSession(orderNo: string | null, options: UsePaymentSessionOptions) {
  const [secondsLeft, setSecondsLeft] = useState(PAYMENT_COUNTDOWN_S);
  const [phase, setPhase] = useState<PaymentPhase>('stopped');
  const sessionRef = useRef<PaymentSession | null>(null);
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    if (!orderNo) return;
    const check = latest.current.checkStatus ?? getPaymentStatus;
    const session = createPaymentSession({
      checkStatus: (signal) => check(orderNo, signal),
      onOutcome: (outcome) => latest.current.onOutcome(outcome),
      onCountdownEnd: () => latest.current.onCountdownEnd(),
      onTick: setSecondsLeft,
      onPhase: setPhase,
    });
    sessionRef.current = session;
    setSecondsLeft(session.secondsLeft);
    setPhase(session.phase);
    session.start();
    return () => {
      session.stop();
      if (sessionRef.current === session) sessionRef.current = null;
    };
  }, [orderNo]);

  const checkNow = useCallback(() => sessionRef.current?.checkNow(), []);
  return { secondsLeft, phase, checkNow };
}
