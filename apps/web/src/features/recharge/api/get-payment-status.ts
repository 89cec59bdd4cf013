import { ApiError, requestEnvelope } from '../../../lib/api-client';
import type { StatusAnswer } from '../payment-session';

/**
 * GET /pay/status?outTradeNo=: SUCCESS, FAIL or (anything else) pending, as the payment
 * session reads it: an answer with another code, or no answer at all (SPEC.md §4).
 */
export async function getPaymentStatus(orderNo: string, signal?: AbortSignal): Promise<StatusAnswer> {
  try {
    const body = await requestEnvelope<string>('GET', '/pay/status', {
      query: { outTradeNo: orderNo },
      signal,
    });
    return body.code === '200'
      ? { kind: 'status', status: String(body.data) }
      : { kind: 'code', code: body.code };
  } catch (err) {
    if (err instanceof ApiError && err.status > 0) return { kind: 'code', code: err.code };
    return { kind: 'network' };
  }
}
