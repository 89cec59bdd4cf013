import { LOW_BALANCE_THRESHOLD_DEFAULT, NOTIFICATION_EVENTS } from '@gpu/shared/notifications';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp, productionSettings, testConfig } from '../../test/test-app.ts';
import { NOTIFICATION_DELIVERY_TASK } from './notices.module.ts';
import { createNoticesRepository } from './notices.repository.ts';
import { notificationDeliveries, notificationSettings as settingsTable } from './notifications.tables.ts';
import { recordingSms } from './notifications.test-helpers.ts';
import { isBlockedAddress, postWebhook } from './webhook-sender.ts';

const clock = fixedClock('2026-11-22T08:00:30Z');
const sms = recordingSms();
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ demo: false, clock, sms: sms.driver });
});
afterAll(() => t.close());

const inject = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: object, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: headers as Record<string, string>,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const notify = (
  userId: number,
  event: 'low_balance' | 'admin_action' | 'recharge_succeeded',
  key: string | null,
) =>
  createNoticesRepository({ db: t.db }).notify({
    userId,
    event,
    title: `标题${key}`,
    body: '内容',
    dedupeKey: key,
  });

describe('notification settings', () => {
  it('answers the defaults: site for all, SMS for money and data-loss events, the default threshold', async () => {
    const { headers } = await t.createUser();
    const res = await inject('GET', '/api/user/notification-settings', headers);
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(Object.keys(s.channels).sort()).toEqual([...NOTIFICATION_EVENTS].sort());
    for (const e of NOTIFICATION_EVENTS) expect(s.channels[e]).toContain('site');
    expect(s.channels.arrears_stop).toEqual(['site', 'sms', 'webhook']);
    expect(s.channels.release_scheduled).toContain('sms');
    expect(s.channels.package_expiring).toContain('sms');
    expect(s.channels.recharge_succeeded).toEqual(['site', 'webhook']);
    expect(s.lowBalanceThreshold).toBe(LOW_BALANCE_THRESHOLD_DEFAULT);
  });

  it('saves what changed (others keep theirs), the threshold as integer units', async () => {
    const { user, headers } = await t.createUser();
    const res = await inject('PUT', '/api/user/notification-settings', headers, {
      channels: { recharge_succeeded: ['sms', 'site', 'sms'], arrears_stop: [] },
      lowBalanceThreshold: 25.5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.channels.recharge_succeeded).toEqual(['site', 'sms']);
    expect(res.json().data.channels.arrears_stop).toEqual([]);
    expect(res.json().data.lowBalanceThreshold).toBe(25.5);
    const again = await inject('PUT', '/api/user/notification-settings', headers, { lowBalanceThreshold: 0 });
    expect(again.json().data.channels.recharge_succeeded).toEqual(['site', 'sms']);
    expect(again.json().data.lowBalanceThreshold).toBe(0);
    const [row] = await t.db.select().from(settingsTable);
    expect(row).toMatchObject({ userId: user.id, lowBalanceThreshold: 0 });
  });

  it('refuses bad settings with a 400 naming the field, and changes nothing', async () => {
    const { headers } = await t.createUser();
    const bad: [unknown, string][] = [
      [{ lowBalanceThreshold: -1 }, '余额提醒阈值'],
      [{ lowBalanceThreshold: 1.234 }, '余额提醒阈值'],
      [{ lowBalanceThreshold: '10' }, '余额提醒阈值'],
      [{ lowBalanceThreshold: 1e9 }, '余额提醒阈值'],
      [{ channels: { arrears_stop: ['email'] } }, '通知渠道'],
      [{ channels: { nope: ['site'] } }, '通知事件'],
      [{ channels: { arrears_stop: 'sms' } }, '通知渠道'],
    ];
    for (const [body, field] of bad) {
      const res = await inject('PUT', '/api/user/notification-settings', headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const s = (await inject('GET', '/api/user/notification-settings', headers)).json().data;
    expect(s.lowBalanceThreshold).toBe(LOW_BALANCE_THRESHOLD_DEFAULT);
  });
});

describe('message centre', () => {
  it('pages newest first with the unread count, marks some or all read; old routes still work', async () => {
    const { user, headers } = await t.createUser();
    for (let i = 1; i <= 5; i++) await notify(user.id, 'admin_action', null);
    const page = (await inject('GET', '/api/user/notifications?page=1&size=2', headers)).json().data;
    expect(page).toMatchObject({ total: 5, unread: 5, page: 1, size: 2 });
    expect(page.list).toHaveLength(2);
    expect(page.list[0].id).toBeGreaterThan(page.list[1].id);
    expect(page.list[0]).toMatchObject({ event: 'admin_action', read: false, instanceId: null });
    const ids = page.list.map((n: { id: number }) => n.id);
    expect((await inject('POST', '/api/user/notifications/read', headers, { ids })).statusCode).toBe(200);
    const unread = (await inject('GET', '/api/user/notifications?unread=true', headers)).json().data;
    expect(unread).toMatchObject({ total: 3, unread: 3 });
    // Another user's ids change nothing.
    const other = await t.createUser();
    await inject('POST', '/api/user/notifications/read', other.headers, {
      ids: unread.list.map((n: { id: number }) => n.id),
    });
    expect((await inject('GET', '/api/user/notifications', headers)).json().data.unread).toBe(3);
    expect((await inject('GET', '/api/user/notices?unread=true', headers)).json().data).toHaveLength(3);
    await inject('POST', '/api/user/notifications/read', headers, {});
    expect((await inject('GET', '/api/user/notifications', headers)).json().data).toMatchObject({
      total: 5,
      unread: 0,
    });
    for (const q of ['page=0', 'size=1000', 'unread=yes']) {
      expect((await inject('GET', `/api/user/notifications?${q}`, headers)).statusCode).toBe(400);
    }
    expect(
      (await inject('POST', '/api/user/notifications/read', headers, { ids: ['x'] })).json().message,
    ).toContain('通知编号');
  });

  it('site off for an event: the notice is kept but written read (out of the bell)', async () => {
    const { user, headers } = await t.createUser();
    await inject('PUT', '/api/user/notification-settings', headers, {
      channels: { recharge_succeeded: ['webhook'] },
    });
    await notify(user.id, 'recharge_succeeded', 'r1');
    const page = (await inject('GET', '/api/user/notifications', headers)).json().data;
    expect(page).toMatchObject({ total: 1, unread: 0 });
  });
});

describe('SMS channel', () => {
  it('sends once per notice, one a minute per phone (later ones wait), never for a channel turned off', async () => {
    const { user, headers } = await t.createUser();
    const before = sms.sent.length;
    expect(await notify(user.id, 'low_balance', 'lb:1')).toBeTypeOf('number');
    expect(await notify(user.id, 'low_balance', 'lb:1')).toBeNull();
    await notify(user.id, 'low_balance', 'lb:2');
    await notify(user.id, 'recharge_succeeded', 'r:1'); // SMS off by default
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sms.sent.slice(before)).toEqual([{ phone: user.phone, title: '标题lb:1', text: '内容' }]);
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sms.sent.length).toBe(before + 1);
    clock.advance(60_000);
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sms.sent.slice(before).map((s) => s.title)).toEqual(['标题lb:1', '标题lb:2']);
    await inject('PUT', '/api/user/notification-settings', headers, { channels: { low_balance: ['site'] } });
    await notify(user.id, 'low_balance', 'lb:3');
    clock.advance(60_000);
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sms.sent.length).toBe(before + 2);
  });
});

describe('SMS at most once', () => {
  it('an SMS whose worker died mid-send is marked failed, not sent again', async () => {
    const { user } = await t.createUser();
    const id = (await notify(user.id, 'low_balance', 'crash:1')) as number;
    // A worker claimed it (the claim counts the try) and died before recording the outcome.
    await t.db
      .update(notificationDeliveries)
      .set({ claimToken: 'dead-worker', claimedUntil: new Date(clock.now().getTime() - 1), attempts: 1 })
      .where(eq(notificationDeliveries.noticeId, id));
    const before = sms.sent.length;
    await t.app.tasks.runNow(NOTIFICATION_DELIVERY_TASK);
    expect(sms.sent.length).toBe(before);
    const [row] = await t.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.noticeId, id));
    expect(row).toMatchObject({ status: 'failed', claimToken: null });
    expect(row?.responseExcerpt).toContain('未再发送');
  });
});

describe('webhook address guard', () => {
  it('refuses loopback, private and link-local addresses unless allowed', async () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '0.0.0.0',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect(isBlockedAddress(a), a).toBe(false);
    const strict = { allowPrivate: false, timeoutMs: 2000 };
    const direct = await postWebhook('http://127.0.0.1:9/x', '{}', {}, strict);
    expect(direct).toMatchObject({ ok: false, responseStatus: null });
    expect(direct.responseExcerpt).toContain('不允许');
    // A name that resolves to loopback is refused where it is resolved.
    const named = await postWebhook('http://localhost:9/x', '{}', {}, strict);
    expect(named.responseExcerpt).toContain('不允许');
    // Production refuses them unless WEBHOOK_ALLOW_PRIVATE says otherwise; elsewhere they pass.
    expect(testConfig(productionSettings()).webhookAllowPrivate).toBe(false);
    expect(testConfig({ ...productionSettings(), WEBHOOK_ALLOW_PRIVATE: 'on' }).webhookAllowPrivate).toBe(
      true,
    );
    expect(testConfig().webhookAllowPrivate).toBe(true);
  });
});
