import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Instance, User } from '@gpu/shared';
import { verifyWebhookSignature } from '@gpu/shared/webhook-signature';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  clickSettled,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// The message centre (issue 31) against the real server: an administrator powers off the user's
// instance, which writes an admin_action notification; the user's bell counts it, its popover and
// 消息中心 list it, marking read clears the count; 通知设置 saves channels and a threshold, and a
// webhook pointing at a receiver in this test is added (secret once), tested (the receiver checks
// the signature as docs/webhooks.md says), gets a real event's delivery, and is deleted.

const HOST = 'gd-b-h100-01';
const NAME = `notif-e2e-${Date.now() % 100_000}`;
const REASON = '机房巡检，临时关机';

let browser: Browser;
let session: { accessToken: string; user: User };
let adminToken: string;
let instance: Instance;

/** What the webhook receiver got: the event header and whether the signature verified. */
const received: { path: string; event: string; verified: boolean; body: { event: string } }[] = [];
const secrets = new Map<string, string>();
let receiver: Server;
let receiverBase: string;

const adminAct = (action: 'power-off' | 'start') =>
  api(`/admin/user-management/instances/${instance.id}/${action}`, {
    token: adminToken,
    body: { reason: REASON },
  });

/** Once the instance is RUNNING or STOPPED (a job may be under way), the administrator flips it. */
async function adminToggle() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { list } = await userCall<{ list: Instance[] }>(
      session.accessToken,
      '/gpu/instances?page=1&size=100',
    );
    const status = list.find((i) => i.id === instance.id)?.status;
    if (status === 'RUNNING' || status === 'STOPPED') {
      await adminAct(status === 'RUNNING' ? 'power-off' : 'start');
      return;
    }
    if (Date.now() > deadline) throw new Error(`instance ${instance.id} still ${status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The bell's unread count ('' when there is no badge). */
const bellCount = (page: Page) =>
  page
    .getByTestId('notification-bell')
    .locator('.ant-badge-count')
    .first()
    .getAttribute('title', { timeout: 1_000 })
    .catch(() => '');

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      const path = req.url ?? '';
      const verified = await verifyWebhookSignature(
        secrets.get(path) ?? '',
        req.headers['x-gpu-signature'] as string | undefined,
        raw,
        Math.floor(Date.now() / 1000),
      );
      received.push({ path, event: String(req.headers['x-gpu-event']), verified, body: JSON.parse(raw) });
      res.writeHead(verified ? 200 : 401, { 'content-type': 'text/plain' });
      res.end(verified ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  session = await registerUser();
  await fundUser(session.accessToken, 300);
  instance = await rentInstance(session.accessToken, { name: NAME, host: HOST });
  expect(instance.status).toBe('RUNNING');
  // Whatever the set-up itself told the user (e.g. 充值成功) is read first: the bell then counts
  // only the administrator's action.
  await userCall(session.accessToken, '/user/notifications/read', {});
  adminToken = (await adminLogin()).token;
  await adminAct('power-off');
});
afterAll(async () => {
  // Give the GPU back: the instance is released (it is powered off or running).
  await api(`/admin/user-management/instances/${instance.id}/terminate`, {
    token: adminToken,
    body: { reason: REASON },
  }).catch(() => undefined);
  await browser?.close();
  receiver?.closeAllConnections();
  receiver?.close();
});

describe('bell and message centre', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
  });
  afterAll(() => context?.close());

  it("counts the administrator's power-off, lists it in the popover, and 消息中心 marks it read", async () => {
    const page = await visit(context, '/console/instance');
    // The instance page still shows what the administrator did.
    await page
      .getByTestId('user-notice')
      .filter({ hasText: '实例已被管理员关机' })
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => bellCount(page), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('notification-bell').getAttribute('aria-label')).toBe('消息通知，1 条未读');

    await page.getByTestId('notification-bell').click();
    const panel = page.getByTestId('bell-panel');
    const item = panel.getByTestId('notification-item').filter({ hasText: '实例已被管理员关机' });
    await item.waitFor();
    expect(await item.textContent()).toContain(`您的实例「${NAME}」已被管理员关机，原因：${REASON}`);
    expect(await item.textContent()).toContain('管理员操作');
    expect(await item.getAttribute('data-read')).toBe('false');
    await shot(page, 'notifications-bell-1440', false);

    await panel.getByTestId('bell-view-all').click();
    await page.waitForURL('**/console/messages');
    const row = page
      .getByTestId('messages-list')
      .getByTestId('notification-item')
      .filter({ hasText: '实例已被管理员关机' });
    await row.waitFor();
    await shot(page, 'notifications-centre-1440');

    await row.getByRole('button', { name: '标为已读' }).click();
    await expect.poll(() => row.getAttribute('data-read')).toBe('true');
    await expect.poll(() => bellCount(page)).toBe('');
    await page.getByRole('tab', { name: '仅看未读' }).click();
    await page.getByTestId('messages-empty').filter({ hasText: '没有未读消息' }).waitFor();
    // Read in the centre, read on the instance page too: the banner is gone.
    const instances = await visit(context, '/console/instance');
    await instances.getByTestId(`instance-row-${instance.id}`).waitFor({ timeout: 15_000 });
    expect(await instances.getByTestId('user-notice').count()).toBe(0);
    await instances.close();
    await page.close();
  });
});

describe('on a 390 px phone', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    // A second notification: the administrator starts the instance again. It is written when the
    // start is done (a job); the bell asks once a minute, so the page opens once it exists.
    await adminAct('start');
    const deadline = Date.now() + 30_000;
    while (
      (await userCall<{ unread: number }>(session.accessToken, '/user/notifications?page=1&size=1')).unread <
      1
    ) {
      if (Date.now() > deadline) throw new Error('no notification of the start within 30 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
  });
  afterAll(() => context?.close());

  it('the bell sits in the bar, opens from the keyboard, fits the screen, and 全部已读 clears it', async () => {
    const page = await visit(context, '/console/instance');
    await expect.poll(() => bellCount(page), { timeout: 15_000 }).toBe('1');
    await page.getByTestId('notification-bell').focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('bell-panel');
    await panel.getByTestId('notification-item').filter({ hasText: '实例已被管理员开机' }).waitFor();
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= MOBILE.width).toBe(true);
    await expectNoSidewaysScroll(page);
    await shot(page, 'notifications-bell-390', false);

    await panel.getByTestId('bell-mark-all').click();
    await expect.poll(() => bellCount(page)).toBe('');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    // The keyboard is back on the bell.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'notification-bell',
    );

    const centre = await visit(context, '/console/messages');
    const items = centre.getByTestId('notification-item');
    const admin = items.filter({ hasText: '实例已被管理员' });
    await expect.poll(() => admin.count(), { timeout: 15_000 }).toBe(2);
    // Everything is read now, the administrator's two among it.
    expect(new Set(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-read'))))).toEqual(
      new Set(['true']),
    );
    await expectNoSidewaysScroll(centre);
    await shot(centre, 'notifications-centre-390');
    await centre.close();
    await page.close();
  });
});

describe('通知设置', () => {
  for (const [viewport, width] of [
    [DESKTOP, '1440'],
    [MOBILE, '390'],
  ] as const) {
    it(`saves channels and the threshold, and manages a webhook (${width})`, async () => {
      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const page = await visit(context, '/console/notification-settings');
      const sms = page.getByTestId('channel-low_balance-sms');
      await sms.waitFor({ timeout: 15_000 });
      const site = page.getByTestId('channel-arrears_stop-site');
      expect(await site.locator('input').isChecked()).toBe(true);
      expect(await site.locator('input').isDisabled()).toBe(true);
      const before = await sms.locator('input').isChecked();
      await sms.click();
      const threshold = page.locator('#low-balance-threshold');
      await threshold.fill(width === '1440' ? '20' : '35.5');
      await page.getByTestId('settings-save').click();
      await toast(page, '通知设置已保存');
      await expectNoSidewaysScroll(page);
      await shot(page, `notification-settings-${width}`);
      await page.reload();
      await page.getByTestId('channel-low_balance-sms').waitFor();
      expect(await page.getByTestId('channel-low_balance-sms').locator('input').isChecked()).toBe(!before);
      expect(await page.locator('#low-balance-threshold').inputValue()).toBe(
        width === '1440' ? '20.00' : '35.50',
      );

      await page.getByRole('tab', { name: 'Webhook' }).click();
      await page.waitForURL('**/console/notification-settings?tab=webhooks');
      await page.getByTestId('webhook-url-input').fill('not a url');
      await page.getByTestId('webhook-add').click();
      await page.locator('.ant-form-item-explain-error', { hasText: '有效地址' }).waitFor();
      const path = `/gpu-${width}`;
      const url = `${receiverBase}${path}`;
      await page.getByTestId('webhook-url-input').fill(url);
      await page.getByTestId('webhook-add').click();
      const secret = (await page.getByTestId('webhook-secret').textContent({ timeout: 15_000 })) ?? '';
      expect(secret.length).toBeGreaterThan(15);
      secrets.set(path, secret);
      await shot(page, `webhook-secret-${width}`, false);
      await page.getByTestId('webhook-secret-done').click();
      await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });

      const card = page.locator('section[data-testid^="webhook-"]', { hasText: url });
      await card.waitFor();
      expect(await card.textContent()).not.toContain(secret);
      await card.getByTestId('webhook-test').click();
      await card.getByTestId('webhook-test-result').waitFor({ timeout: 30_000 });
      expect(await card.getByTestId('webhook-test-result').textContent()).toContain('测试成功');
      expect(received.filter((r) => r.path === path)).toEqual([
        expect.objectContaining({ verified: true, event: 'webhook_test' }),
      ]);

      // A real event fans out to the webhook: the administrator acts on the instance again, the
      // delivery task sends it signed, and the card's log shows the delivery.
      await adminToggle();
      await expect
        .poll(() => received.filter((r) => r.path === path && r.event === 'admin_action').length, {
          timeout: 30_000,
        })
        .toBe(1);
      expect(received.find((r) => r.path === path && r.event === 'admin_action')?.verified).toBe(true);
      await page.reload();
      await card.getByTestId('webhook-delivery').first().waitFor({ timeout: 15_000 });
      expect(await card.getByTestId('webhook-delivery').first().textContent()).toContain('200');
      await expectNoSidewaysScroll(page);
      await shot(page, `webhooks-${width}`);

      // Mid-screen first: scrolled just under the sticky header, the pointer sat by the account
      // menu, whose hover panel opened over the confirmation.
      await card.getByTestId('webhook-delete').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await card.getByTestId('webhook-delete').click();
      await clickSettled(
        page,
        page.locator('.ant-popover', { hasText: '删除这个 Webhook？' }).getByRole('button', { name: '删除' }),
      );
      await toast(page, 'Webhook 已删除');
      await card.waitFor({ state: 'detached' });
      await context.close();
    });
  }
});
