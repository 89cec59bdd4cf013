import {
  envelopeSchema,
  instanceIdQuerySchema,
  saveImageRequestSchema,
  userImageListSchema,
  userImageQuotaSchema,
  userImageSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import { idParamsSchema } from '../../../platform/http/params.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { adminActor, signedInUser } from '../../auth/index.ts';
import type { InstancesModuleDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import {
  deleteUserImage,
  getImageQuota,
  getUserImage,
  listUserImages,
  saveImage,
  setImageQuota,
} from './images.usecases.ts';

const tags = ['images'];

/** 保存镜像 and 我的镜像 (issue 30), and the quota administrators set. */
export async function userImageRoutes(app: AppInstance, deps: InstancesModuleDeps) {
  const me = signedInUser;
  app.post(
    '/api/gpu/instance/save-image',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '将已关机实例的系统盘保存为私有镜像（后台任务）',
        querystring: instanceIdQuerySchema,
        body: saveImageRequestSchema,
        response: { 200: envelopeSchema(userImageSchema) },
      },
    },
    async (request) => {
      const user = me(request);
      const inst = await createInstancesRepository(deps).findOwned(
        request.query.instance_uuid,
        user.id,
        user.tenantId,
      );
      if (!inst) throw instanceErrors.notFound();
      const id = await saveImage(deps, inst.id, { kind: 'user', id: user.id }, request.body);
      return ok(await getUserImage(deps, user.id, id), '正在保存镜像');
    },
  );
  app.get(
    '/api/user/images',
    {
      preHandler: app.requireUser,
      schema: { tags, summary: '我的镜像', response: { 200: envelopeSchema(userImageListSchema) } },
    },
    async (request) => ok(await listUserImages(deps, me(request).id)),
  );
  app.delete(
    '/api/user/images/:id',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '删除我的镜像',
        params: idParamsSchema('镜像编号无效'),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await deleteUserImage(deps, me(request).id, request.params.id);
      return ok(null, '镜像已删除');
    },
  );

  const admin = { preHandler: app.requireAdmin };
  app.get(
    '/api/admin/user-images/quota',
    {
      ...admin,
      schema: {
        tags,
        summary: '每位用户的镜像配额',
        response: { 200: envelopeSchema(userImageQuotaSchema) },
      },
    },
    async () => ok(await getImageQuota(deps)),
  );
  app.put(
    '/api/admin/user-images/quota',
    {
      ...admin,
      schema: {
        tags,
        summary: '设置每位用户的镜像配额',
        body: userImageQuotaSchema,
        response: { 200: envelopeSchema(userImageQuotaSchema) },
      },
    },
    async (request) => ok(await setImageQuota(deps, adminActor(request), request.body), '已保存'),
  );
}
