import { balanceSchema, envelopeSchema } from '@gpu/shared';
import { ok } from '../../app/plugins/envelope.ts';
import type { AppInstance } from '../../app/server.ts';
import { getBalance } from './billing.usecases.ts';

export async function billingRoutes(app: AppInstance) {
  app.get(
    '/api/user/balance',
    {
      preHandler: app.requireUser,
      schema: { tags: ['billing'], summary: '账户余额', response: { 200: envelopeSchema(balanceSchema) } },
    },
    async (request) => ok(await getBalance(app.deps, request.user?.id as number)),
  );
}
