import { envelopeSchema, idSchema, instancePortsRequestSchema, instanceSchema } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { InstancesModuleDeps } from './instances.deps.ts';
import type { InstanceWithPlace } from './instances.repository.ts';
import { setExtraPorts } from './lifecycle/ports.usecases.ts';

/** The 连接 drawer's 端口 editor: the instance's extra service ports, while powered off. */
export async function portsRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps,
  ctx: {
    owned: (r: FastifyRequest, id: number) => Promise<InstanceWithPlace>;
    view: (id: number) => Promise<z.infer<typeof instanceSchema>>;
  },
) {
  app.put(
    '/api/gpu/instance/:uuid/ports',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['instances'],
        summary: '修改额外端口（仅关机时；下次创建容器时生效）',
        params: z.object({ uuid: idSchema('实例编号无效') }),
        body: instancePortsRequestSchema,
        response: { 200: envelopeSchema(instanceSchema) },
      },
    },
    async (request) => {
      const inst = await ctx.owned(request, request.params.uuid);
      await setExtraPorts(deps, inst.id, request.body.ports);
      return ok(await ctx.view(inst.id), '端口已保存');
    },
  );
}
