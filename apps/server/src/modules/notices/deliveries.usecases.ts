import { randomUUID } from 'node:crypto';
import type { WebhookPayload } from '@gpu/shared/notifications';
import { CODE_RULES, countHit } from '../auth/index.ts';
import type { NoticesDeps } from './notices.usecases.ts';
import { excerptOf, nextAttemptAfter } from './notifications.models.ts';
import { createNotificationsRepository, type DeliveryRow } from './notifications.repository.ts';
import { postWebhook, type SendResult } from './webhook-sender.ts';
import { signedRequest } from './webhooks.usecases.ts';

/** A worker's lease on the deliveries it claimed: far above a webhook's time limit. */
export const DELIVERY_LEASE_MS = 60_000;
export const DELIVERY_BATCH = 50;

type Context = Awaited<ReturnType<ReturnType<typeof createNotificationsRepository>['contexts']>>[number];
/** How one try ended: sent, failed (retried while retries last), or put off without counting. */
type Outcome = SendResult | { deferUntil: Date; reason: string };

/**
 * The delivery task: claims due deliveries (replicas take different rows), sends each outside
 * any transaction and records the outcome under its claim. A webhook that fails is retried on
 * WEBHOOK_RETRY_DELAYS_S, then marked failed. SMS is sent at most once: one whose worker died
 * mid-send (lease out, no outcome) is marked failed, never sent again.
 */
export async function runDeliveries(deps: NoticesDeps, limit = DELIVERY_BATCH) {
  const now = deps.now();
  const repo = createNotificationsRepository(deps);
  const token = randomUUID();
  await repo.abandonStaleSms(now);
  const claimed = await repo.claimDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), token, limit);
  if (claimed.length === 0) return { sent: 0, failed: 0 };
  const contexts = new Map((await repo.contexts(claimed.map((c) => c.id))).map((c) => [c.deliveryId, c]));
  let sent = 0;
  let failed = 0;
  const one = async (d: DeliveryRow) => {
    const ctx = contexts.get(d.id);
    const outcome: Outcome = ctx
      ? await deliver(deps, d, ctx).catch((err: Error) => ({
          ok: false,
          responseStatus: null,
          responseExcerpt: excerptOf(`发送失败：${err.message}`),
          durationMs: 0,
        }))
      : { ok: false, responseStatus: null, responseExcerpt: '通知已删除', durationMs: 0 };
    if ('deferUntil' in outcome) {
      // Not a try: the attempt the claim counted is given back.
      await repo.finish(d.id, token, {
        status: 'pending',
        attempts: d.attempts - 1,
        nextAttemptAt: outcome.deferUntil,
        responseExcerpt: outcome.reason,
      });
      return;
    }
    const retryAt = outcome.ok || d.channel === 'sms' ? null : nextAttemptAfter(d.attempts, deps.now());
    const status = outcome.ok ? 'delivered' : retryAt ? 'pending' : 'failed';
    if (outcome.ok) sent++;
    else failed++;
    await repo.finish(d.id, token, {
      status,
      responseStatus: outcome.responseStatus,
      responseExcerpt: outcome.responseExcerpt,
      nextAttemptAt: retryAt,
    });
  };
  // SMS to one phone one after another, oldest first: that phone's minute goes to the earlier
  // notice and later ones wait (sent together, whichever counted first won). All else at once.
  const byPhone = new Map<string, DeliveryRow[]>();
  const rest: DeliveryRow[] = [];
  for (const d of [...claimed].sort((a, b) => a.id - b.id)) {
    const phone = d.channel === 'sms' ? contexts.get(d.id)?.phone : undefined;
    if (phone) byPhone.set(phone, [...(byPhone.get(phone) ?? []), d]);
    else rest.push(d);
  }
  const inOrder = async (list: DeliveryRow[]) => {
    for (const d of list) await one(d);
  };
  await Promise.all([...[...byPhone.values()].map(inOrder), ...rest.map(one)]);
  return { sent, failed };
}

/** Deliveries are kept this long once finished (the log shows the last ones of each webhook). */
export const DELIVERY_KEEP_MS = 30 * 86_400_000;

export async function purgeDeliveries(deps: Pick<NoticesDeps, 'db' | 'now'>) {
  const deleted = await createNotificationsRepository(deps).purgeFinished(
    new Date(deps.now().getTime() - DELIVERY_KEEP_MS),
  );
  return { deleted };
}

async function deliver(deps: NoticesDeps, d: DeliveryRow, ctx: Context): Promise<Outcome> {
  const { notice } = ctx;
  if (d.channel === 'sms') return sendSms(deps, ctx);
  if (!ctx.webhook?.enabled)
    return { ok: false, responseStatus: null, responseExcerpt: '回调地址已停用', durationMs: 0 };
  const payload: WebhookPayload = {
    id: notice.id,
    event: notice.event,
    title: notice.title,
    body: notice.body,
    instanceId: notice.instanceId,
    createdAt: notice.createdAt.toISOString(),
    params: notice.params,
  };
  const req = await signedRequest(deps.box.open(ctx.webhook.secretEnc), payload, deps.now());
  return postWebhook(ctx.webhook.url, req.body, req.headers, deps.webhooks);
}

/**
 * One SMS, under the limits verification codes have per phone (CODE_RULES): one a minute
 * (a later one waits for the next minute) and a daily cap (over it, not sent). Counted apart
 * from the codes, so notices never use up a user's sign-in codes.
 */
async function sendSms(deps: NoticesDeps, ctx: Context): Promise<Outcome> {
  const nowMs = deps.now().getTime();
  const phone = ctx.phone;
  const minute = await countHit(deps.db, `notice-sms:${phone}`, CODE_RULES.cooldownMs, nowMs);
  if (minute.current > 1)
    return { deferUntil: new Date(nowMs + minute.ttl), reason: '短信发送过于频繁，稍后发送' };
  const day = await countHit(deps.db, `notice-sms-day:${phone}`, CODE_RULES.dayMs, nowMs);
  if (day.current > CODE_RULES.dailyCapPerPhone)
    return { ok: false, responseStatus: null, responseExcerpt: '已达今日短信上限，未发送', durationMs: 0 };
  const started = performance.now();
  await deps.sms.sendNotice({
    phone,
    notice: { kind: 'EVENT', title: ctx.notice.title, text: ctx.notice.body },
  });
  return {
    ok: true,
    responseStatus: null,
    responseExcerpt: '已发送',
    durationMs: Math.round(performance.now() - started),
  };
}
