import {
  createQrCodeRequestSchema,
  createQrCodeResponseSchema,
  envelopeSchema,
  pageSchema,
  paymentStatusQuerySchema,
  paymentStatusResponseSchema,
  rechargeOrderQuerySchema,
  rechargeOrderSchema,
  userRechargeQuerySchema,
} from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { alipayNotifyRoutes } from './drivers/alipay/alipay.routes.ts';
import { simulatedPaymentRoutes } from './drivers/simulated/simulated.routes.ts';
import type { PaymentDeps } from './payments.deps.ts';
import { createRecharge, getRechargeOrder, listRechargeOrders, paymentStatus } from './payments.usecases.ts';

/** SPEC.md §7: the payment calls answer `msg` besides the envelope; errors too. */
const okWithMsg = <T>(data: T, message = '成功') => ({ ...ok(data, message), msg: message });
async function addMsg(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).includes('json'))
    return payload;
  try {
    const body = JSON.parse(payload);
    if (body && typeof body === 'object' && typeof body.message === 'string' && !('msg' in body)) {
      return JSON.stringify({ ...body, msg: body.message });
    }
  } catch {
    // not JSON after all: leave it
  }
  return payload;
}

export async function paymentsRoutes(app: AppInstance, deps: PaymentDeps) {
  // Per address; per user, pending orders and orders per hour are limited in the database.
  const rechargeRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  app.post(
    '/api/pay/createQrCode',
    {
      preHandler: [app.requireUser, app.idempotent('payments.create-qr')],
      onSend: addMsg,
      config: { access: 'billing', ...rechargeRateLimit },
      schema: {
        tags: ['payments'],
        summary: '创建充值订单并获取支付二维码',
        body: createQrCodeRequestSchema,
        response: { 200: createQrCodeResponseSchema },
      },
    },
    async (request) =>
      okWithMsg(
        await createRecharge(deps, signedInUser(request), request.body, request.tenant.name),
        '二维码生成成功',
      ),
  );
  // SPEC.md §7 `POST /user/recharge (query amount)`: the same order and answer as createQrCode
  // (never a direct credit: money arrives only through the provider's payment).
  app.post(
    '/api/user/recharge',
    {
      preHandler: [app.requireUser, app.idempotent('payments.user-recharge')],
      onSend: addMsg,
      config: { access: 'billing', ...rechargeRateLimit },
      schema: {
        tags: ['payments'],
        summary: '创建充值订单（查询参数 amount，整数元），返回支付二维码',
        querystring: userRechargeQuerySchema,
        response: { 200: createQrCodeResponseSchema },
      },
    },
    async (request) =>
      okWithMsg(
        await createRecharge(
          deps,
          signedInUser(request),
          { amount: request.query.amount, type: 'alipay' },
          request.tenant.name,
        ),
        '二维码生成成功',
      ),
  );
  app.get(
    '/api/pay/status',
    {
      preHandler: app.requireUser,
      onSend: addMsg,
      schema: {
        tags: ['payments'],
        summary: '查询支付状态（SUCCESS / FAIL / PENDING）',
        querystring: paymentStatusQuerySchema,
        response: { 200: paymentStatusResponseSchema },
      },
    },
    async (request) => okWithMsg(await paymentStatus(deps, signedInUser(request), request.query.outTradeNo)),
  );

  app.get(
    '/api/recharge/orders',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['payments'],
        summary: '我的充值订单',
        querystring: rechargeOrderQuerySchema,
        response: { 200: envelopeSchema(pageSchema(rechargeOrderSchema)) },
      },
    },
    async (request) => ok(await listRechargeOrders(deps, signedInUser(request), request.query)),
  );
  app.get(
    '/api/recharge/orders/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['payments'],
        summary: '充值订单详情（编号或订单号）',
        params: z.object({ id: z.string().trim().min(1).max(64) }),
        response: { 200: envelopeSchema(rechargeOrderSchema) },
      },
    },
    async (request) => ok(await getRechargeOrder(deps, signedInUser(request), request.params.id)),
  );

  if (deps.payments.kind === 'simulated') await simulatedPaymentRoutes(app, deps);
  if (deps.payments.kind === 'alipay') await alipayNotifyRoutes(app, deps);
}
