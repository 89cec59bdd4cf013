import { WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOKS_PER_USER } from '@gpu/shared/notifications';
import { verifyWebhookSignature } from '@gpu/shared/webhook-signature';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createNoticesRepository } from './index.ts';
import { NOTIFICATION_DELIVERY_TASK } from './notices.module.ts';
import { notificationDeliveries } from './notifications.tables.ts';
import { recordingSms, startReceiver } from './notifications.test-helpers.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
const sms = recordingSms();
let t: Awaited<ReturnType<typeof createTestApp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  t = await createTestApp({ demo: false, clock, sms: sms.driver });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const inject = async (method: 'GET' | 'POST' | 'DELETE', url: string, headers: object, payload?: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
const deliver = () => t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
const nowS = () => Math.floor(clock.now().getTime() / 1000);

describe('webhooks', () => {
  it('adds a webhook, shows the secret once, signs deliveries the documented way, logs them', async () => {
    const { user, headers } = await t.createUser();
    const added = await inject('POST', '/api/user/webhooks', headers, { url: `${receiver.url}/hook` });
    expect(added.statusCode).toBe(200);
    const created = added.json().data;
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.secretHint).toBe(`••••${created.secret.slice(-4)}`);
    const listed = (await inject('GET', '/api/user/webhooks', headers)).json().data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const id = await createNoticesRepository({ db: t.db }).notify({
      userId: user.id,
      event: 'recharge_succeeded',
      title: '充值成功',
      body: '您已成功充值 ¥100.00',
      dedupeKey: 'recharge:1',
      params: { amount: 100 },
    });
    expect(id).toBeTypeOf('number');
    const before = receiver.received.length;
    await deliver();
    expect(receiver.received.length).toBe(before + 1);
    const got = receiver.received.at(-1);
    expect(got?.path).toBe('/hook');
    expect(got?.headers[WEBHOOK_EVENT_HEADER.toLowerCase()]).toBe('recharge_succeeded');
    const signature = String(got?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]);
    expect(await verifyWebhookSignature(created.secret, signature, got?.raw ?? '', nowS(), 300)).toBe(true);
    // The documented check refuses a changed body, another secret and an old timestamp.
    expect(await verifyWebhookSignature(created.secret, signature, `${got?.raw} `, nowS(), 300)).toBe(false);
    expect(await verifyWebhookSignature('whsec_other', signature, got?.raw ?? '', nowS(), 300)).toBe(false);
    expect(await verifyWebhookSignature(created.secret, signature, got?.raw ?? '', nowS() + 301, 300)).toBe(
      false,
    );
    expect(JSON.parse(got?.raw ?? '{}')).toEqual({
      id,
      event: 'recharge_succeeded',
      title: '充值成功',
      body: '您已成功充值 ¥100.00',
      instanceId: null,
      createdAt: expect.any(String),
      params: { amount: 100 },
    });
    // Delivered once: another run sends nothing.
    await deliver();
    expect(receiver.received.length).toBe(before + 1);
    const log = (await inject('GET', '/api/user/webhooks', headers)).json().data[0].deliveries;
    expect(log).toEqual([
      expect.objectContaining({
        event: 'recharge_succeeded',
        status: 'delivered',
        attempts: 1,
        responseStatus: 200,
        responseExcerpt: 'ok',
        nextAttemptAt: null,
      }),
    ]);
  });

  it('retries a failed delivery with backoff, then it succeeds; the log shows each answer', async () => {
    const { user, headers } = await t.createUser();
    await inject('POST', '/api/user/webhooks', headers, { url: receiver.url });
    receiver.answers.push(500, 302);
    await createNoticesRepository({ db: t.db }).notify({
      userId: user.id,
      event: 'voucher_received',
      title: '收到代金券',
      body: 'b',
      dedupeKey: 'v:1',
    });
    const start = receiver.received.length;
    await deliver();
    expect(receiver.received.length).toBe(start + 1);
    let log = (await inject('GET', '/api/user/webhooks', headers)).json().data[0].deliveries;
    expect(log[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      responseExcerpt: 'boom 500',
    });
    expect(new Date(log[0].nextAttemptAt).getTime() - clock.now().getTime()).toBe(60_000);
    // Not due yet: nothing is sent.
    clock.advance(59_000);
    await deliver();
    expect(receiver.received.length).toBe(start + 1);
    clock.advance(1_000);
    await deliver();
    expect(receiver.received.length).toBe(start + 2);
    log = (await inject('GET', '/api/user/webhooks', headers)).json().data[0].deliveries;
    // A redirect is not followed: a failed try, retried after the second delay.
    expect(log[0]).toMatchObject({ status: 'pending', attempts: 2, responseStatus: 302 });
    expect(new Date(log[0].nextAttemptAt).getTime() - clock.now().getTime()).toBe(300_000);
    clock.advance(300_000);
    await deliver();
    expect(receiver.received.length).toBe(start + 3);
    log = (await inject('GET', '/api/user/webhooks', headers)).json().data[0].deliveries;
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 200 });
    // Every retry carries the notice's id: the receiver can drop repeats.
    const ids = receiver.received.slice(start).map((r) => JSON.parse(r.raw).id);
    expect(new Set(ids).size).toBe(1);
    // Finished deliveries are purged after 30 days.
    const mine = () =>
      t.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.userId, user.id));
    await t.app.tasks.runNow('notices.purge-deliveries');
    expect(await mine()).toHaveLength(1);
    clock.advance(31 * 86_400_000);
    await t.app.tasks.runNow('notices.purge-deliveries');
    expect(await mine()).toHaveLength(0);
  });

  it('test button: sends a signed test event now and answers the result', async () => {
    const { headers } = await t.createUser();
    const created = (await inject('POST', '/api/user/webhooks', headers, { url: receiver.url })).json().data;
    const res = await inject('POST', `/api/user/webhooks/${created.id}/test`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ok: true, responseStatus: 200, responseExcerpt: 'ok' });
    const got = receiver.received.at(-1);
    expect(got?.headers[WEBHOOK_EVENT_HEADER.toLowerCase()]).toBe('webhook_test');
    const sig = String(got?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]);
    expect(await verifyWebhookSignature(created.secret, sig, got?.raw ?? '', nowS())).toBe(true);
    receiver.answers.push(503);
    expect(
      (await inject('POST', `/api/user/webhooks/${created.id}/test`, headers)).json().data,
    ).toMatchObject({
      ok: false,
      responseStatus: 503,
    });
    // Another user's webhook is not found.
    const other = await t.createUser();
    expect((await inject('POST', `/api/user/webhooks/${created.id}/test`, other.headers)).statusCode).toBe(
      404,
    );
    expect((await inject('DELETE', `/api/user/webhooks/${created.id}`, other.headers)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/user/webhooks/${created.id}`, headers)).statusCode).toBe(200);
    expect((await inject('GET', '/api/user/webhooks', headers)).json().data).toEqual([]);
  });

  it('refuses bad URLs (400 naming the field) and more than WEBHOOKS_PER_USER', async () => {
    const { headers } = await t.createUser();
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/', '']) {
      const res = await inject('POST', '/api/user/webhooks', headers, { url });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('回调地址');
    }
    for (let i = 0; i < WEBHOOKS_PER_USER; i++) {
      expect(
        (await inject('POST', '/api/user/webhooks', headers, { url: `${receiver.url}/${i}` })).statusCode,
      ).toBe(200);
    }
    const over = await inject('POST', '/api/user/webhooks', headers, { url: receiver.url });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain(`${WEBHOOKS_PER_USER}`);
  });
});
