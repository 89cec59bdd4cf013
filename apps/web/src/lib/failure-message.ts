import { t } from '../locales/zh-CN';
import { ApiError } from './api-client';

/** The two fallbacks of SPEC.md §8: the server answered without a message, or no answer came. */
export interface FailureTexts {
  failed: string;
  retry: string;
}

/**
 * SPEC.md §8: the server's message is preferred; an answer without one gets `failed`
 * (登录失败), a call that got no answer (timeout, network) or an unexpected error gets `retry`
 * (登录失败，请稍后重试).
 */
export function failureMessage(err: unknown, texts: FailureTexts): string {
  if (!(err instanceof ApiError)) return texts.retry;
  if (err.status === 0) return texts.retry;
  const fromServer =
    err.code !== 'INVALID_RESPONSE' && err.message !== '' && err.message !== t.api.httpError(err.status);
  return fromServer ? err.message : texts.failed;
}

/** The wait a 429 names ("请45秒后再试"), in seconds; null when it names none. */
export function waitSecondsOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.status !== 429) return null;
  const match = /(\d+)\s*秒/.exec(err.message);
  const seconds = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}
