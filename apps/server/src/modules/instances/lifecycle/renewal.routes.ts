import { envelopeSchema, idSchema, renewalPricingSchema, renewalRequestSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { signedInUser } from '../../auth/index.ts';
import type { InstancesModuleDeps } from '../instances.deps.ts';
import { renew, renewalPricing } from './renewal.usecases.ts';

/** 续费 of a packaged instance: its price, and the renewal itself (idempotent per key). */
export async function renewalRoutes(app: AppInstance, deps: InstancesModuleDeps) {
  const me = signedInUser;
  const idParams = z.object({ id: idSchema('实例编号无效') });
  app.get(
    '/api/v2/package-billing/renewal-pricing/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['pricing'],
        summary: '续费价格',
        params: idParams,
        response: { 200: envelopeSchema(renewalPricingSchema) },
      },
    },
    async (request) => ok(await renewalPricing(deps, me(request), request.params.id)),
  );
  app.post(
    '/api/v2/package-billing/manual-renewal',
    {
      preHandler: [app.requireUser, app.idempotent('instances.renew')],
      config: { access: 'instances' },
      schema: {
        tags: ['pricing'],
        summary: '手动续费',
        body: renewalRequestSchema,
        response: {
          200: envelopeSchema(
            z.object({ instanceId: z.number().int(), expiresAt: z.string(), amount: z.number() }),
          ),
        },
      },
    },
    async (request) => ok(await renew(deps, me(request), request.body, request.idempotency?.key), '续费成功'),
  );
}
