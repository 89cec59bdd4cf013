import { envelopeSchema } from '@gpu/shared';
import {
  markNotificationsReadSchema,
  notificationPageSchema,
  notificationQuerySchema,
  notificationSettingsInputSchema,
  notificationSettingsSchema,
} from '@gpu/shared/notifications';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import {
  markNoticesRead,
  type NoticesDeps,
  notificationPage,
  notificationSettings,
  saveNotificationSettings,
} from './notices.usecases.ts';

/** The message centre (issue 31) and the user's notification preferences. */
export async function notificationsRoutes(app: AppInstance, deps: NoticesDeps) {
  const tags = ['notifications'];
  const guard = { preHandler: app.requireUser };
  app.get(
    '/api/user/notifications',
    {
      ...guard,
      schema: {
        tags,
        summary: '消息中心（含未读数）',
        querystring: notificationQuerySchema,
        response: { 200: envelopeSchema(notificationPageSchema) },
      },
    },
    async (request) => ok(await notificationPage(deps, signedInUser(request).id, request.query)),
  );
  app.post(
    '/api/user/notifications/read',
    {
      ...guard,
      config: { access: 'read' },
      schema: {
        tags,
        summary: '标记消息为已读（不带 ids 时全部标记）',
        body: markNotificationsReadSchema.optional(),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await markNoticesRead(deps, signedInUser(request).id, request.body?.ids);
      return ok(null, '已标记为已读');
    },
  );
  app.get(
    '/api/user/notification-settings',
    {
      ...guard,
      schema: { tags, summary: '通知设置', response: { 200: envelopeSchema(notificationSettingsSchema) } },
    },
    async (request) => ok(await notificationSettings(deps, signedInUser(request).id)),
  );
  app.put(
    '/api/user/notification-settings',
    {
      ...guard,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '保存通知设置（未列出的事件保持原设置）',
        body: notificationSettingsInputSchema,
        response: { 200: envelopeSchema(notificationSettingsSchema) },
      },
    },
    async (request) =>
      ok(await saveNotificationSettings(deps, signedInUser(request).id, request.body), '通知设置已保存'),
  );
}
