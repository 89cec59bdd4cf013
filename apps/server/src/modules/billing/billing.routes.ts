import {
  balanceAdjustmentRequestSchema,
  balanceCheckQuerySchema,
  balanceCheckSchema,
  balanceSchema,
  envelopeSchema,
  idSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInAdmin, signedInUser } from '../auth/index.ts';
import type { BillingDeps } from './billing.deps.ts';
import { adjustBalance, checkBalance, getBalance } from './billing.usecases.ts';

export async function billingRoutes(app: AppInstance, deps: BillingDeps) {
  app.get(
    '/api/user/balance',
    {
      preHandler: app.requireUser,
      schema: { tags: ['billing'], summary: '账户余额', response: { 200: envelopeSchema(balanceSchema) } },
    },
    async (request) => ok(await getBalance(deps, signedInUser(request).id)),
  );
  app.get(
    '/api/user/balance/check',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['billing'],
        summary: '可用余额是否足够',
        querystring: balanceCheckQuerySchema,
        response: { 200: envelopeSchema(balanceCheckSchema) },
      },
    },
    async (request) => ok(await checkBalance(deps, signedInUser(request).id, request.query.amount)),
  );
  app.post(
    '/api/admin/users/:id/balance-adjustment',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: '管理员调整用户余额（记入账本并写审计日志）',
        params: z.object({ id: idSchema('用户编号无效') }),
        body: balanceAdjustmentRequestSchema,
        response: { 200: envelopeSchema(balanceSchema) },
      },
    },
    async (request) => {
      const { balance, created } = await adjustBalance(
        deps,
        signedInAdmin(request),
        request.params.id,
        request.body,
        request.ip,
      );
      return ok(balance, created ? '余额已调整' : '该调整已处理过，未重复记账');
    },
  );
}
