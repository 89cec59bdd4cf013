import { envelopeSchema, idSchema, userNoticeSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { listNotices, markNoticesRead, type NoticesDeps } from './notices.usecases.ts';

/** The user's notices from the back office (an admin acted on their instance). */
export async function noticesRoutes(app: AppInstance, deps: NoticesDeps) {
  const tags = ['notices'];
  app.get(
    '/api/user/notices',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: '我的通知（管理员对实例的操作）',
        querystring: z.object({
          unread: z.enum(['true', 'false'], { message: 'unread 只能是 true 或 false' }).optional(),
        }),
        response: { 200: envelopeSchema(z.array(userNoticeSchema)) },
      },
    },
    async (request) => ok(await listNotices(deps, signedInUser(request).id, request.query.unread === 'true')),
  );
  app.post(
    '/api/user/notices/read',
    {
      preHandler: app.requireUser,
      config: { access: 'read' },
      schema: {
        tags,
        summary: '标记通知为已读（不带 id 时全部标记）',
        body: z.object({ id: idSchema('通知编号无效').optional() }).optional(),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await markNoticesRead(deps, signedInUser(request).id, request.body?.id);
      return ok(null, '已标记为已读');
    },
  );
}
