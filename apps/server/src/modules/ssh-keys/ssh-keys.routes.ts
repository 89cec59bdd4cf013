import { envelopeSchema, idSchema, sshKeyCreateSchema, sshKeySchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { addSshKey, deleteSshKey, listSshKeys, type SshKeysDeps } from './ssh-keys.usecases.ts';

/** 账号安全 → SSH公钥: the signed-in user's own keys. */
export async function sshKeysRoutes(app: AppInstance, deps: SshKeysDeps) {
  const tags = ['ssh-keys'];
  app.get(
    '/api/user/ssh-keys',
    {
      preHandler: app.requireUser,
      schema: { tags, summary: '我的SSH公钥', response: { 200: envelopeSchema(z.array(sshKeySchema)) } },
    },
    async (request) => ok(await listSshKeys(deps, signedInUser(request))),
  );
  app.post(
    '/api/user/ssh-keys',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '添加SSH公钥（之后创建或开机的实例生效）',
        body: sshKeyCreateSchema,
        response: { 200: envelopeSchema(sshKeySchema) },
      },
    },
    async (request) =>
      ok(await addSshKey(deps, signedInUser(request), request.body), '已添加，之后创建或开机的实例生效'),
  );
  app.delete(
    '/api/user/ssh-keys/:id',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '删除SSH公钥（之后创建或开机的实例生效）',
        params: z.object({ id: idSchema('公钥编号无效') }),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await deleteSshKey(deps, signedInUser(request), request.params.id);
      return ok(null, '已删除，之后创建或开机的实例生效');
    },
  );
}
