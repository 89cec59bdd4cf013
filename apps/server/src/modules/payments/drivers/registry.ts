import type { Db } from '../../../platform/db/client.ts';
import { createAlipayPaymentDriver } from './alipay/alipay-driver.ts';
import type { PaymentDriver } from './payment-driver.ts';
import { createSimulatedPaymentDriver } from './simulated/simulated-driver.ts';

export const ALIPAY_NOTIFY_PATH = '/api/pay/alipay/notify';

/** The payment driver the settings choose (DESIGN §2: one registry per external dependency). */
/** The settings (env vars, app/config.ts) the payment provider is chosen and configured by. */
export interface PaymentSettings {
  PAYMENT_PROVIDER: 'simulated' | 'alipay';
  ALIPAY_APP_ID?: string;
  ALIPAY_PRIVATE_KEY?: string;
  ALIPAY_PUBLIC_KEY?: string;
  ALIPAY_GATEWAY: string;
  ALIPAY_NOTIFY_URL?: string;
  ALIPAY_SELLER_ID?: string;
  ALIPAY_TIMEOUT_MS: number;
  publicBaseUrl: string;
}

export function createPaymentDriver(config: PaymentSettings, { db }: { db: Db }): PaymentDriver {
  if (config.PAYMENT_PROVIDER === 'alipay') {
    return createAlipayPaymentDriver({
      appId: config.ALIPAY_APP_ID as string,
      privateKey: config.ALIPAY_PRIVATE_KEY as string,
      alipayPublicKey: config.ALIPAY_PUBLIC_KEY as string,
      gateway: config.ALIPAY_GATEWAY,
      notifyUrl: config.ALIPAY_NOTIFY_URL ?? `${config.publicBaseUrl}${ALIPAY_NOTIFY_PATH}`,
      sellerId: config.ALIPAY_SELLER_ID,
      timeoutMs: config.ALIPAY_TIMEOUT_MS,
    });
  }
  return createSimulatedPaymentDriver({ db, publicBaseUrl: config.publicBaseUrl });
}
