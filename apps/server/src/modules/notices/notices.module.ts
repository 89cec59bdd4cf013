import { defineModule } from '../../platform/module.ts';
import type { SmsDriver } from '../sms/index.ts';
import { purgeDeliveries, runDeliveries } from './deliveries.usecases.ts';
import { noticesRoutes } from './notices.routes.ts';
import type { NoticesDeps } from './notices.usecases.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

export const NOTIFICATION_DELIVERY_TASK = 'notices.deliveries';
/** A webhook request's time limit. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * The message centre: everything the platform tells a user, with its fan-out to SMS and signed
 * webhooks (the delivery task), per-event channel settings, and the webhooks themselves.
 */
export const noticesModule = defineModule({
  name: 'notices',
  createDeps: (core, needs: { sms: SmsDriver; webhookAllowPrivate: boolean }): NoticesDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    box: core.box,
    sms: needs.sms,
    log: core.log,
    webhooks: { allowPrivate: needs.webhookAllowPrivate, timeoutMs: WEBHOOK_TIMEOUT_MS },
  }),
  register: async (app, deps) => {
    await noticesRoutes(app, deps);
    await notificationsRoutes(app, deps);
    await webhooksRoutes(app, deps);
    app.tasks.register({
      name: NOTIFICATION_DELIVERY_TASK,
      intervalMs: 5_000,
      run: () => runDeliveries(deps),
    });
    app.tasks.register({
      name: 'notices.purge-deliveries',
      intervalMs: 3_600_000,
      run: () => purgeDeliveries(deps),
    });
  },
});
