import {
  dockerCleanupResultSchema,
  dockerInstanceSchema,
  envelopeSchema,
  gpuAvailabilitySchema,
  idSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { type AuthUser, perCustomerLimit, signedInUser } from '../auth/index.ts';
import { cleanupOrphansOf, gpuAvailabilityFor } from './containers.usecases.ts';
import type { HostsDeps } from './hosts.usecases.ts';
import { type DockerInstanceGateway, noInstancesYet } from './instance-gateway.ts';

const idQuery = z.object({
  id: idSchema('请提供实例 id'),
});
const availabilityQuery = z.object({
  totalGpu: z.coerce.number().int().min(1).max(64).optional(),
  hostId: idSchema('主机编号无效').optional(),
});

/**
 * The local-docker user endpoints of SPEC.md §7 (/api/gpu/docker/*). Instance ownership and
 * power actions come from the instances module through `instances` (issue 7 passes its own).
 */
export async function dockerPathRoutes(
  app: AppInstance,
  deps: HostsDeps,
  instances: DockerInstanceGateway = noInstancesYet,
) {
  const user = { preHandler: app.requireUser };
  const tags = ['gpu-docker'];

  app.get(
    '/api/gpu/docker/gpus/available',
    {
      ...user,
      schema: {
        tags,
        summary: '本地主机 GPU 空闲情况',
        querystring: availabilityQuery,
        response: { 200: envelopeSchema(gpuAvailabilitySchema) },
      },
    },
    async (request) =>
      ok(await gpuAvailabilityFor(deps, request.tenant.config.visibleRegionResources, request.query)),
  );

  app.get(
    '/api/gpu/docker/instances',
    {
      ...user,
      schema: {
        tags,
        summary: '我的本地实例',
        response: { 200: envelopeSchema(z.array(dockerInstanceSchema)) },
      },
    },
    async (request) => ok(await instances.listForUser(signedInUser(request))),
  );

  app.post(
    '/api/gpu/docker/cleanup',
    {
      ...user,
      // Each call contacts the hosts of the caller's ended instances: a budget per customer.
      config: { access: 'instances', ...perCustomerLimit(3) },
      schema: {
        tags,
        summary: '清理已释放实例残留的容器（仅本人实例所在主机）',
        response: { 200: envelopeSchema(dockerCleanupResultSchema) },
      },
    },
    async (request) => {
      const result = await cleanupOrphansOf(deps, instances, signedInUser(request));
      if (result.removed.length > 0) deps.changed();
      return ok(result, '清理完成');
    },
  );

  const actions = [
    ['power_off', '关机', (u: AuthUser, id: number) => instances.powerOff(u, id)],
    ['power_on', '开机', (u: AuthUser, id: number) => instances.powerOn(u, id)],
    ['release', '释放', (u: AuthUser, id: number) => instances.release(u, id)],
  ] as const;
  for (const [path, verb, act] of actions) {
    app.post(
      `/api/gpu/docker/${path}`,
      {
        ...user,
        config: { access: 'instances' },
        schema: {
          tags,
          summary: `本地实例${verb}`,
          querystring: idQuery,
          response: { 200: envelopeSchema(dockerInstanceSchema) },
        },
      },
      async (request) => ok(await act(signedInUser(request), request.query.id), `正在${verb}`),
    );
  }
}
