import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fakeNotificationsApi, message } from '../src/features/notifications/test/fake-api';
import { DESKTOP, launchBrowser, MOBILE, registerUser } from './helpers';
import { openContext, shot, visit } from './screen-helpers';

// TEMPORARY (not committed): screens with the notification routes answered in the browser.
let browser: Browser;
let session: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
});
afterAll(() => browser?.close());

async function mocked(viewport: { width: number; height: number }) {
  const fake = fakeNotificationsApi();
  fake.state.messages = [
    message({ id: 1, event: 'low_balance', title: '余额不足', body: '您的可用余额为 ¥8.20，低于预警阈值 ¥10.00；按当前消费约可用 3 小时。', minutesAgo: 3 }),
    message({ id: 2, event: 'idle_shutdown_warning', title: '实例即将空闲关机', body: '实例「训练-01」的 GPU 已连续 50 分钟利用率低于 5%，将在 10 分钟后关机。', minutesAgo: 20 }),
    message({ id: 3, event: 'admin_action', title: '实例已被管理员关机', body: '您的实例「notif-e2e」已被管理员关机，原因：机房巡检，临时关机', minutesAgo: 60, read: true }),
    message({ id: 4, event: 'recharge_succeeded', title: '充值成功', body: '充值 ¥200.00 已到账。', minutesAgo: 300, read: true }),
    message({ id: 5, event: 'voucher_received', title: '收到代金券', body: '您收到 1 张 ¥50 代金券，30 天内有效。', minutesAgo: 900 }),
  ];
  fake.state.settings = { channels: { low_balance: ['site', 'sms'], idle_shutdown: ['site', 'webhook'] } as never, lowBalanceThreshold: 10 };
  fake.state.webhooks = [
    {
      id: 5,
      url: 'https://hooks.example.com/gpu-cloud/notify',
      secretHint: 'whsec_****3f9a',
      enabled: true,
      createdAt: '2026-11-25T02:00:00.000Z',
      deliveries: [
        { id: 1, event: 'idle_shutdown', attempts: 3, status: 'pending', responseStatus: 503, responseExcerpt: '<html><body>Service Unavailable</body></html>', lastAttemptAt: '2026-11-25T02:10:00.000Z', nextAttemptAt: '2026-11-25T02:40:00.000Z' },
        { id: 2, event: 'low_balance', attempts: 1, status: 'delivered', responseStatus: 200, responseExcerpt: '{"ok":true}', lastAttemptAt: '2026-11-25T01:10:00.000Z', nextAttemptAt: null },
      ],
    },
  ];
  const context = await openContext(browser, viewport, { token: session.accessToken, user: session.user });
  await context.route(/\/api\/user\/(notifications|notification-settings|webhooks)/, async (route) => {
    const req = route.request();
    const answer = fake.routes(new URL(req.url()), { method: req.method(), body: req.postData() ?? undefined });
    await route.fulfill({ status: answer?.status ?? 404, contentType: 'application/json', body: JSON.stringify(answer?.body ?? {}) });
  });
  return context;
}

for (const [vp, w] of [[DESKTOP, '1440'], [MOBILE, '390']] as const) {
  describe(`screens ${w}`, () => {
    let context: BrowserContext;
    beforeAll(async () => { context = await mocked(vp); });
    afterAll(() => context?.close());
    it('bell', async () => {
      const page: Page = await visit(context, '/console/instance');
      await page.getByTestId('notification-bell').locator('.ant-badge-count').waitFor();
      await shot(page, `zz-top-${w}`, false);
      await page.getByTestId('notification-bell').click();
      await page.getByTestId('bell-panel').waitFor();
      await page.waitForTimeout(500);
      await shot(page, `zz-bell-${w}`, false);
    });
    it('centre', async () => {
      const page = await visit(context, '/console/messages');
      await page.getByTestId('messages-list').waitFor();
      await shot(page, `zz-centre-${w}`);
    });
    it('settings', async () => {
      const page = await visit(context, '/console/notification-settings');
      await page.getByTestId('notification-settings').waitFor();
      await shot(page, `zz-settings-${w}`);
      const p2 = await visit(context, '/console/notification-settings?tab=webhooks');
      await p2.getByTestId('webhook-5').waitFor();
      await p2.getByTestId('webhook-test').click();
      await p2.getByTestId('webhook-test-result').waitFor();
      await shot(p2, `zz-webhooks-${w}`);
      await p2.getByTestId('webhook-url-input').fill('https://example.org/x');
      await p2.getByTestId('webhook-add').click();
      await p2.getByTestId('webhook-secret').waitFor();
      await p2.waitForTimeout(500);
      await shot(p2, `zz-secret-${w}`, false);
    });
  });
}
