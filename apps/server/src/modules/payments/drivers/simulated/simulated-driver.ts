import type { Db } from '../../../../platform/db/client.ts';
import { createPaymentsRepository } from '../../payments.repository.ts';
import type { PaymentDriver, TradeState } from '../payment-driver.ts';

/** The URL path of an order's simulated payment page; its GET shows the order, its POST pays. */
export const simulatedPayPath = (orderNo: string) => `/api/pay/simulated/${encodeURIComponent(orderNo)}`;
export const simulatedTradeNo = (orderNo: string) => `SIM${orderNo}`;

/**
 * The offline default (DESIGN §8): the QR encodes a page of our own server where one click pays.
 * Paying happens on that page, straight into our database, so the provider's view of a trade is
 * the order itself.
 */
export function createSimulatedPaymentDriver(opts: { db: Db; publicBaseUrl: string }): PaymentDriver {
  const repo = createPaymentsRepository({ db: opts.db });
  return {
    kind: 'simulated',
    async createQr(req) {
      return { qrCode: `${opts.publicBaseUrl}${simulatedPayPath(req.orderNo)}` };
    },
    async query(orderNo): Promise<TradeState> {
      const order = await repo.byOrderNo(orderNo);
      if (order?.provider !== 'simulated') return { status: 'NOT_FOUND' };
      if (order.status === 'SUCCESS') {
        return {
          status: 'PAID',
          tradeNo: order.providerTradeNo ?? simulatedTradeNo(orderNo),
          amount: order.amount,
        };
      }
      if (order.status === 'PENDING') return { status: 'WAITING' };
      return { status: 'CLOSED' };
    },
    async close() {
      // Nothing outside our database: the page refuses orders that are not pending.
    },
  };
}
