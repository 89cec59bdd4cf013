import {
  envelopeSchema,
  idSchema,
  instancePortsRequestSchema,
  instanceSchema,
  instanceSshSettingsSchema,
} from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { InstancesModuleDeps } from './instances.deps.ts';
import type { InstanceWithPlace } from './instances.repository.ts';
import { setExtraPorts } from './lifecycle/ports.usecases.ts';
import { setSshPasswordAuth } from './lifecycle/ssh-access.usecases.ts';

/**
 * The 连接 drawer's settings of an instance that apply when its container is next started or
 * made: the SSH password switch (keys are the account's) and the extra service ports.
 */
export async function instanceSettingsRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps,
  ctx: {
    owned: (r: FastifyRequest, id: number) => Promise<InstanceWithPlace>;
    view: (id: number) => Promise<z.infer<typeof instanceSchema>>;
  },
) {
  const options = <B extends z.ZodType>(summary: string, body: B) => ({
    preHandler: app.requireUser,
    config: { access: 'instances' as const },
    schema: {
      tags: ['instances'],
      summary,
      params: z.object({ uuid: idSchema('实例编号无效') }),
      body,
      response: { 200: envelopeSchema(instanceSchema) },
    },
  });

  app.put(
    '/api/gpu/instance/:uuid/ssh',
    options('SSH 密码登录开关（下次创建或开机时生效）', instanceSshSettingsSchema),
    async (request) => {
      const inst = await ctx.owned(request, request.params.uuid);
      await setSshPasswordAuth(deps, inst, request.body.passwordAuth);
      const when = inst.status === 'STOPPED' ? '开机时生效' : '下次开机时生效';
      return ok(await ctx.view(inst.id), `已${request.body.passwordAuth ? '开启' : '关闭'}密码登录，${when}`);
    },
  );
  app.put(
    '/api/gpu/instance/:uuid/ports',
    options('修改额外端口（仅关机时；下次开机时生效）', instancePortsRequestSchema),
    async (request) => {
      const inst = await ctx.owned(request, request.params.uuid);
      await setExtraPorts(deps, inst.id, request.body.ports);
      return ok(await ctx.view(inst.id), '端口已保存');
    },
  );
}
