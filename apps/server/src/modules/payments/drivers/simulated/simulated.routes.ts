import { z } from 'zod';
import type { AppInstance } from '../../../../platform/http/types.ts';
import type { PaymentDeps } from '../../payments.deps.ts';
import { renderSimulatedPage } from './simulated-page.ts';
import { paySimulatedOrder, simulatedOrder } from './simulated-payments.ts';

const params = z.object({ orderNo: z.string().max(64) });

/** The page the simulated QR code opens (only when PAYMENT_PROVIDER=simulated). No login: it is "the phone". */
export async function simulatedPaymentRoutes(app: AppInstance, deps: PaymentDeps) {
  app.get(
    '/api/pay/simulated/:orderNo',
    { schema: { tags: ['payments'], summary: '模拟支付页面（HTML）', params, hide: true } },
    async (request, reply) => {
      const order = await simulatedOrder(deps, request.params.orderNo);
      return reply
        .code(order ? 200 : 404)
        .type('text/html; charset=utf-8')
        .send(renderSimulatedPage(order ?? null));
    },
  );
  app.post(
    '/api/pay/simulated/:orderNo',
    { schema: { tags: ['payments'], summary: '模拟支付：确认支付', params, hide: true } },
    async (request, reply) => {
      const order = await paySimulatedOrder(deps, request.params.orderNo);
      return reply
        .code(order ? 200 : 404)
        .type('text/html; charset=utf-8')
        .send(renderSimulatedPage(order ?? null));
    },
  );
}
