import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createNoticesRepository } from './index.ts';
import { NOTIFICATION_DELIVERY_TASK } from './notices.module.ts';
import { startReceiver } from './notifications.test-helpers.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  t = await createTestApp({ demo: false, clock });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const call = (method: 'PUT' | 'POST', url: string, headers: object, payload: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, payload });

describe('PUT /api/user/webhooks/:id', () => {
  it('pauses a webhook (no deliveries for new events) and resumes it; only its owner may', async () => {
    const { user, headers } = await t.createUser();
    const hook = (await call('POST', '/api/user/webhooks', headers, { url: `${receiver.url}/switch` })).json()
      .data;
    const notify = (key: string) =>
      createNoticesRepository({ db: t.db }).notify({
        userId: user.id,
        event: 'recharge_succeeded',
        title: '充值成功',
        body: '您已成功充值 ¥10.00',
        dedupeKey: key,
      });
    const sent = () => receiver.received.filter((r) => r.path === '/switch').length;

    const paused = await call('PUT', `/api/user/webhooks/${hook.id}`, headers, { enabled: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().data.enabled).toBe(false);
    expect(paused.json().message).toBe('回调地址已停用');
    await notify('switch:1');
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sent()).toBe(0);

    expect((await call('PUT', `/api/user/webhooks/${hook.id}`, headers, { enabled: true })).statusCode).toBe(
      200,
    );
    await notify('switch:2');
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sent()).toBe(1);

    // Bad input names the field and changes nothing; another user's webhook is not found.
    const bad = await call('PUT', `/api/user/webhooks/${hook.id}`, headers, { enabled: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('enabled');
    const other = await t.createUser();
    expect(
      (await call('PUT', `/api/user/webhooks/${hook.id}`, other.headers, { enabled: false })).statusCode,
    ).toBe(404);
    const [listed] = (await t.app.inject({ method: 'GET', url: '/api/user/webhooks', headers })).json().data;
    expect(listed.enabled).toBe(true);
  });
});
