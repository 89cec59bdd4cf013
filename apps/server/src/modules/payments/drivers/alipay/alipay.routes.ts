import type { AppInstance } from '../../../../platform/http/types.ts';
import type { PaymentDeps } from '../../payments.deps.ts';
import { handleNotification } from '../../payments.usecases.ts';
import { ALIPAY_NOTIFY_PATH } from '../registry.ts';

/**
 * Alipay's asynchronous notify (form-encoded POST). Answers the plain text `success` only after
 * the credit is committed, else `fail` so Alipay tries again later.
 */
export async function alipayNotifyRoutes(app: AppInstance, deps: PaymentDeps) {
  app.post(
    ALIPAY_NOTIFY_PATH,
    { schema: { tags: ['payments'], summary: '支付宝异步通知', hide: true } },
    async (request, reply) => {
      const body = request.body;
      let answer: 'success' | 'fail' = 'fail';
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const params = Object.fromEntries(
          Object.entries(body as Record<string, unknown>).filter(
            (e): e is [string, string] => typeof e[1] === 'string',
          ),
        );
        try {
          answer = await handleNotification(deps, params);
        } catch (err) {
          request.log.error({ err, orderNo: params.out_trade_no }, 'alipay notification failed');
        }
      }
      return reply.type('text/plain; charset=utf-8').send(answer);
    },
  );
}
