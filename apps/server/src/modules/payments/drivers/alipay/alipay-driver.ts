import { createPrivateKey, createPublicKey } from 'node:crypto';
import { AlipaySdk } from 'alipay-sdk';
import { ORDER_TTL_MS, unitsToYuanString, yuanStringToUnits } from '../../payments.models.ts';
import {
  type NotificationCheck,
  type PaymentDriver,
  PaymentProviderError,
  type TradeState,
} from '../payment-driver.ts';

export interface AlipaySettings {
  appId: string;
  /** The application's RSA private key: PEM (PKCS#1 or PKCS#8) or its bare base64 body. */
  privateKey: string;
  /** Alipay's RSA public key: PEM or bare base64. */
  alipayPublicKey: string;
  gateway: string;
  notifyUrl: string;
  /** When set, a notification must name this seller (the merchant's PID). */
  sellerId?: string;
  timeoutMs: number;
}

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** Environment variables often carry keys with literal `\n`; bare base64 needs its type guessed. */
export function normalizePrivateKey(raw: string): { key: string; keyType: 'PKCS1' | 'PKCS8' } {
  const key = raw.replaceAll('\\n', '\n').trim();
  if (key.includes('BEGIN RSA PRIVATE KEY')) return { key, keyType: 'PKCS1' };
  if (key.includes('BEGIN PRIVATE KEY')) return { key, keyType: 'PKCS8' };
  const der = Buffer.from(key.replace(/\s+/g, ''), 'base64');
  try {
    createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    return { key, keyType: 'PKCS8' };
  } catch {
    createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
    return { key, keyType: 'PKCS1' };
  }
}

const normalizePublicKey = (raw: string) => raw.replaceAll('\\n', '\n').trim();

/** Checks the keys once at start, so a bad setting stops the server with a clear message. */
function assertKeys(s: AlipaySettings) {
  try {
    normalizePrivateKey(s.privateKey);
  } catch {
    throw new Error('ALIPAY_PRIVATE_KEY: 无法解析的 RSA 私钥');
  }
  try {
    const k = normalizePublicKey(s.alipayPublicKey);
    if (k.includes('BEGIN')) createPublicKey(k);
    else createPublicKey({ key: Buffer.from(k.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  } catch {
    throw new Error('ALIPAY_PUBLIC_KEY: 无法解析的支付宝公钥');
  }
}

interface AlipayResult {
  code?: string;
  msg?: string;
  subCode?: string;
  subMsg?: string;
  [k: string]: unknown;
}

/**
 * Alipay face-to-face payment through the official SDK: trade.precreate for the QR string,
 * trade.query, trade.close, and the async notify verified with the SDK (RSA2). Every answer of
 * the gateway is signature-checked too.
 */
export function createAlipayPaymentDriver(s: AlipaySettings): PaymentDriver {
  assertKeys(s);
  const { key, keyType } = normalizePrivateKey(s.privateKey);
  const sdk = new AlipaySdk({
    appId: s.appId,
    privateKey: key,
    keyType,
    alipayPublicKey: normalizePublicKey(s.alipayPublicKey),
    gateway: s.gateway,
    timeout: s.timeoutMs,
    signType: 'RSA2',
  });

  const exec = async (method: string, params: Record<string, unknown>): Promise<AlipayResult> => {
    // The HTTP client's own timeout can fire late (coarse timers); this one holds to the setting.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${s.timeoutMs} ms`)), s.timeoutMs);
    });
    try {
      return (await Promise.race([
        sdk.exec(method, params, { validateSign: true }),
        deadline,
      ])) as AlipayResult;
    } catch (err) {
      throw new PaymentProviderError(`${method}: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  };
  const refuse = (method: string, r: AlipayResult) =>
    new PaymentProviderError(`${method}: ${r.code} ${r.subCode ?? ''} ${r.subMsg ?? r.msg ?? ''}`.trim());

  return {
    kind: 'alipay',
    async createQr(req) {
      const r = await exec('alipay.trade.precreate', {
        notifyUrl: s.notifyUrl,
        bizContent: {
          outTradeNo: req.orderNo,
          totalAmount: unitsToYuanString(req.amount),
          subject: req.subject,
          body: req.body,
          // Alipay closes the trade itself after this, in step with our order's expiry.
          timeoutExpress: `${Math.ceil(ORDER_TTL_MS / 60_000)}m`,
        },
      });
      if (r.code !== '10000' || typeof r.qrCode !== 'string' || !r.qrCode) throw refuse('precreate', r);
      return { qrCode: r.qrCode };
    },
    async query(orderNo): Promise<TradeState> {
      const r = await exec('alipay.trade.query', { bizContent: { outTradeNo: orderNo } });
      if (r.code === '40004' && r.subCode === 'ACQ.TRADE_NOT_EXIST') return { status: 'NOT_FOUND' };
      if (r.code !== '10000') throw refuse('query', r);
      const status = String(r.tradeStatus ?? '');
      if (PAID.has(status)) {
        return {
          status: 'PAID',
          tradeNo: String(r.tradeNo ?? ''),
          amount: yuanStringToUnits(r.totalAmount as string),
        };
      }
      if (status === 'TRADE_CLOSED') return { status: 'CLOSED' };
      return { status: 'WAITING' };
    },
    async close(orderNo) {
      const r = await exec('alipay.trade.close', { bizContent: { outTradeNo: orderNo } });
      if (r.code === '10000') return;
      if (r.code === '40004' && r.subCode === 'ACQ.TRADE_NOT_EXIST') return;
      throw refuse('close', r);
    },
    verifyNotification(params): NotificationCheck {
      // V2: the values as posted (already form-decoded), not decoded a second time.
      if (!sdk.checkNotifySignV2(params)) return { ok: false, reason: 'bad signature' };
      if (params.app_id !== s.appId) return { ok: false, reason: `app_id ${params.app_id}` };
      if (s.sellerId && params.seller_id !== s.sellerId)
        return { ok: false, reason: `seller_id ${params.seller_id}` };
      if (!params.out_trade_no) return { ok: false, reason: 'no out_trade_no' };
      const status = params.trade_status ?? '';
      return {
        ok: true,
        notification: {
          orderNo: params.out_trade_no,
          tradeNo: params.trade_no ?? '',
          amount: yuanStringToUnits(params.total_amount),
          state: PAID.has(status) ? 'PAID' : status === 'TRADE_CLOSED' ? 'CLOSED' : 'WAITING',
        },
      };
    },
  };
}
