/** Where recharge money comes from (DESIGN §8). Amounts are 0.0001 yuan units. */
export type PaymentProviderKind = 'simulated' | 'alipay';

export interface QrRequest {
  orderNo: string;
  amount: number;
  subject: string;
  body: string;
  expiresAt: Date;
}

/** What the provider says about one order. */
export type TradeState =
  | { status: 'PAID'; tradeNo: string; amount: number | null }
  | { status: 'WAITING' }
  | { status: 'CLOSED' }
  /** The provider has no trade yet (an Alipay QR nobody scanned): as good as waiting. */
  | { status: 'NOT_FOUND' };

/** A genuine asynchronous notification (signature, app and seller checked by the driver). */
export interface PaymentNotification {
  orderNo: string;
  tradeNo: string;
  /** Units, or null when the amount field is malformed. */
  amount: number | null;
  state: 'PAID' | 'CLOSED' | 'WAITING';
}

export type NotificationCheck =
  | { ok: true; notification: PaymentNotification }
  | { ok: false; reason: string };

export interface PaymentDriver {
  readonly kind: PaymentProviderKind;
  /** Opens the trade and returns the string the QR code encodes. */
  createQr(req: QrRequest): Promise<{ qrCode: string }>;
  query(orderNo: string): Promise<TradeState>;
  /** Closes an unpaid trade; closing one that does not exist is fine. Throws if it is paid. */
  close(orderNo: string): Promise<void>;
  /** Providers that call us back verify the callback's parameters here. */
  verifyNotification?(params: Record<string, string>): NotificationCheck;
}

/** The provider failed or answered something we cannot use; the order stays as it was. */
export class PaymentProviderError extends Error {}
