import type { Envelope } from '@gpu/shared/envelope';
import type { CreateQrCodeRequest, QrCode } from '@gpu/shared/payments';
import { ApiError, requestEnvelope } from '../../../lib/api-client';
import { idempotentAction } from '../../../lib/idempotent-action';
import { t } from '../../../locales/zh-CN';

const m = t.recharge.messages;

/** What `POST /pay/createQrCode` answers besides the envelope (SPEC.md §7). */
type QrEnvelope = Envelope<QrCode | null> & { msg?: string };

export type CreateQrCodeResult = { ok: true; qr: QrCode } | { ok: false; message: string };

/** SPEC.md §8: a non-200 code shows the server's msg, else "payment request failed"; no QR. */
export function readQrEnvelope(body: QrEnvelope): CreateQrCodeResult {
  if (body.code !== '200') return { ok: false, message: body.msg || body.message || m.requestFailed };
  if (!body.data?.qrCode || !body.data.orderNo) return { ok: false, message: m.qrFailed };
  return { ok: true, qr: body.data };
}

/**
 * An error thrown by the call: an answer with another code is "non-200" (its msg, else
 * "payment request failed"); no usable answer at all is the exception case of SPEC.md §8.
 */
export function qrErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status > 0 && /^\d{3}$/.test(err.code)) {
    // A body that was not our envelope carries the client's generic "请求失败（502）".
    return err.message && err.message !== t.api.httpError(err.status) ? err.message : m.requestFailed;
  }
  return m.requestException;
}

const sendQrCode = (input: CreateQrCodeRequest, idempotencyKey: string) =>
  requestEnvelope<QrCode | null>('POST', '/pay/createQrCode', { body: input, idempotencyKey });

/**
 * POST /pay/createQrCode as the recharge button's action: a PENDING order and its QR string,
 * or the message to show. One per page: a click repeating an unanswered one reuses its key.
 */
export function createQrCodeAction(send = idempotentAction(sendQrCode)) {
  return async (input: CreateQrCodeRequest): Promise<CreateQrCodeResult> => {
    try {
      return readQrEnvelope(await send(input));
    } catch (err) {
      return { ok: false, message: qrErrorMessage(err) };
    }
  };
}
