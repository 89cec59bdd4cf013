import { envelopeSchema, idSchema, instanceSchema, instanceSshSettingsSchema } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { InstancesModuleDeps } from './instances.deps.ts';
import type { InstanceWithPlace } from './instances.repository.ts';
import { setSshPasswordAuth } from './lifecycle/ssh-access.usecases.ts';

/** The 连接 drawer's SSH switch: password sign-in per instance (keys are the account's). */
export async function sshRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps,
  ctx: {
    owned: (r: FastifyRequest, id: number) => Promise<InstanceWithPlace>;
    view: (id: number) => Promise<z.infer<typeof instanceSchema>>;
  },
) {
  app.put(
    '/api/gpu/instance/:uuid/ssh',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['instances'],
        summary: 'SSH 密码登录开关（下次创建或开机时生效）',
        params: z.object({ uuid: idSchema('实例编号无效') }),
        body: instanceSshSettingsSchema,
        response: { 200: envelopeSchema(instanceSchema) },
      },
    },
    async (request) => {
      const inst = await ctx.owned(request, request.params.uuid);
      await setSshPasswordAuth(deps, inst, request.body.passwordAuth);
      const when = inst.status === 'STOPPED' ? '开机时生效' : '下次开机时生效';
      return ok(await ctx.view(inst.id), `已${request.body.passwordAuth ? '开启' : '关闭'}密码登录，${when}`);
    },
  );
}
