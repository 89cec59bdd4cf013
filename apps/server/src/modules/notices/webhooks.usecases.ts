import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhook,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
  WEBHOOKS_PER_USER,
  type Webhook,
  type WebhookPayload,
  type WebhookTestResult,
} from '@gpu/shared/notifications';
import { signWebhookPayload } from '@gpu/shared/webhook-signature';
import { noticesErrors } from './notices.errors.ts';
import type { NoticesDeps } from './notices.usecases.ts';
import { secretHintOf } from './notifications.models.ts';
import { createNotificationsRepository, type DeliveryRow } from './notifications.repository.ts';
import type { userWebhooks } from './notifications.tables.ts';
import { postWebhook } from './webhook-sender.ts';

/** Deliveries each webhook shows in its log. */
export const DELIVERY_LOG_SIZE = 10;

type WebhookRow = typeof userWebhooks.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toWebhook = (w: WebhookRow, log: DeliveryRow[]): Webhook => ({
  id: w.id,
  url: w.url,
  secretHint: w.secretHint,
  enabled: w.enabled,
  createdAt: w.createdAt.toISOString(),
  deliveries: log
    .filter((d) => d.webhookId === w.id)
    .map((d) => ({
      id: d.id,
      event: d.event,
      attempts: d.attempts,
      status: d.status,
      responseStatus: d.responseStatus,
      responseExcerpt: d.responseExcerpt,
      lastAttemptAt: iso(d.lastAttemptAt),
      nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt ?? d.createdAt) : null,
    })),
});

export async function listWebhooks(deps: Pick<NoticesDeps, 'db'>, userId: number): Promise<Webhook[]> {
  const repo = createNotificationsRepository(deps);
  const hooks = await repo.webhooks(userId);
  const log = await repo.deliveryLog(
    hooks.map((h) => h.id),
    DELIVERY_LOG_SIZE,
  );
  return hooks.map((h) => toWebhook(h, log));
}

/** Adds a webhook with a fresh secret, answered whole only here (stored sealed). */
export async function addWebhook(
  deps: Pick<NoticesDeps, 'db' | 'box'>,
  userId: number,
  url: string,
): Promise<CreatedWebhook> {
  // The count and the insert race only against the same user's other tab: one over is harmless.
  const repo = createNotificationsRepository(deps);
  if ((await repo.countWebhooks(userId)) >= WEBHOOKS_PER_USER) {
    throw noticesErrors.webhooksFull();
  }
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = await repo.addWebhook({
    userId,
    url,
    secretEnc: deps.box.seal(secret),
    secretHint: secretHintOf(secret),
  });
  return { ...toWebhook(row, []), secret };
}

/** Pauses or resumes a webhook: a paused one gets no new deliveries (those queued still go). */
export async function setWebhookEnabled(
  deps: Pick<NoticesDeps, 'db'>,
  userId: number,
  id: number,
  enabled: boolean,
): Promise<Webhook> {
  const repo = createNotificationsRepository(deps);
  const row = await repo.setWebhookEnabled(userId, id, enabled);
  if (!row) throw noticesErrors.webhookNotFound();
  return toWebhook(row, await repo.deliveryLog([row.id], DELIVERY_LOG_SIZE));
}

export async function deleteWebhook(deps: Pick<NoticesDeps, 'db'>, userId: number, id: number) {
  if (!(await createNotificationsRepository(deps).deleteWebhook(userId, id)))
    throw noticesErrors.webhookNotFound();
}

/** The request a delivery makes: the JSON body and its signed headers. */
export async function signedRequest(secret: string, payload: WebhookPayload, now: Date) {
  const body = JSON.stringify(payload);
  const t = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: {
      [WEBHOOK_SIGNATURE_HEADER]: await signWebhookPayload(secret, body, t),
      [WEBHOOK_EVENT_HEADER]: payload.event,
    },
  };
}

/** Sends a test event to the webhook now and answers what its receiver said (not retried). */
export async function testWebhook(deps: NoticesDeps, userId: number, id: number): Promise<WebhookTestResult> {
  const hook = await createNotificationsRepository(deps).webhook(userId, id);
  if (!hook) throw noticesErrors.webhookNotFound();
  const now = deps.now();
  const req = await signedRequest(
    deps.box.open(hook.secretEnc),
    {
      id: 0,
      event: WEBHOOK_TEST_EVENT,
      title: '测试通知',
      body: '这是一条测试通知，收到即表示回调地址可用。',
      instanceId: null,
      createdAt: now.toISOString(),
      params: {},
    },
    now,
  );
  const { ok, responseStatus, responseExcerpt, durationMs } = await postWebhook(
    hook.url,
    req.body,
    req.headers,
    deps.webhooks,
  );
  return { ok, responseStatus, responseExcerpt, durationMs };
}
