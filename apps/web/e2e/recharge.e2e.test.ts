import path from 'node:path';
import type { User } from '@gpu/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  clickSettled,
  DESKTOP,
  launchBrowser,
  MOBILE,
  openAccountPanel,
  registerUser,
  seedSession,
  siteUrl,
} from './helpers';

// Recharge (SPEC.md §2, §4, §5, §8) against the real server and its simulated payment provider:
// the QR encodes a page of our own server where a click pays.

let browser: Browser;
let session: { accessToken: string; user: User };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
});
afterAll(() => browser?.close());

async function newContext(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  await seedSession(context, { token: session.accessToken, user: session.user });
  return context;
}

async function visit(context: BrowserContext, route: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', route));
  await page.waitForLoadState('networkidle');
  return page;
}

/** A full-page screenshot from the top, once toasts are gone and transitions have settled. */
async function shot(page: Page, name: string) {
  await page
    .locator('.ant-message-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The other-amount message under the field. */
const fieldError = (page: Page) => page.getByTestId('recharge-custom-error').textContent();

/** Dialog titles (antd confirm). */
const dialog = (page: Page, title: string) => page.locator('.ant-modal-confirm-title', { hasText: title });

/** Pays an order as "the phone" would: opens the QR's page and presses 确认支付. */
async function payOnSimulatedPage(context: BrowserContext, qrUrl: string) {
  const phone = await context.newPage();
  await phone.goto(qrUrl);
  expect(await phone.locator('h1').textContent()).toBe('模拟支付');
  await phone.getByRole('button', { name: '确认支付' }).click();
  await phone.locator('h1', { hasText: '支付成功' }).waitFor();
  await phone.close();
}

describe('recharge (desktop)', () => {
  let context: BrowserContext;
  let page: Page;
  let orderNo = '';

  beforeAll(async () => {
    context = await newContext(DESKTOP);
    page = await visit(context, '/recharge');
  });
  afterAll(() => context?.close());

  it('shows the balance, the presets with their growth values, Alipay, and a disabled button', async () => {
    expect(await page.title()).toMatch(/^账户充值 - /);
    await page.getByTestId('recharge-balance').filter({ hasText: '0.00' }).waitFor();
    expect(await page.getByTestId('recharge-balance').textContent()).toBe('¥0.00');
    for (const amount of [200, 500, 1000, 5000, 10000]) {
      const preset = page.getByTestId(`recharge-preset-${amount}`);
      expect(await preset.textContent()).toContain(`+${amount} 成长值`);
    }
    expect(await page.getByTestId('recharge-method-alipay').getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('recharge-method-alipay').textContent()).toContain('支付宝');
    expect(await page.getByTestId('recharge-submit').isDisabled()).toBe(true);
  });

  it('shows the messages of invalid amounts and warns on submit', async () => {
    const input = page.getByTestId('recharge-custom');
    await input.fill('50');
    expect(await fieldError(page)).toBe('充值金额不能少于100元');
    expect(await page.getByTestId('recharge-submit').isDisabled()).toBe(false);
    await page.getByTestId('recharge-submit').click();
    await page.locator('.ant-message-notice', { hasText: '请完善充值信息' }).waitFor();
    expect(await page.getByTestId('recharge-qr-view').count()).toBe(0);

    await input.fill('100001');
    expect(await fieldError(page)).toBe('充值金额不能超过100000元');

    // Only digits and control keys get through: the dot of 1.5 is dropped.
    await input.fill('');
    await input.pressSequentially('1.5');
    expect(await input.inputValue()).toBe('15');
    expect(await fieldError(page)).toBe('充值金额不能少于100元');
    await input.pressSequentially('e-+');
    expect(await input.inputValue()).toBe('15');

    await input.fill('');
    expect(await fieldError(page)).toBe('请输入有效的充值金额');
    expect(await page.getByTestId('recharge-submit').isDisabled()).toBe(true);

    await input.fill('300');
    expect(await fieldError(page)).toBe('');
    expect(await page.getByTestId('recharge-payable').textContent()).toBe('¥300.00');
  });

  it('recharges 200 end to end with the simulated provider', async () => {
    await page.getByTestId('recharge-preset-200').click();
    expect(await page.getByTestId('recharge-custom').inputValue()).toBe('');
    expect(await page.getByTestId('recharge-payable').textContent()).toBe('¥200.00');
    await page.mouse.move(0, 0);
    await shot(page, 'recharge-form-1440');

    await page.getByTestId('recharge-submit').click();
    const view = page.getByTestId('recharge-qr-view');
    await view.waitFor();
    const qr = page.getByTestId('recharge-qr');
    expect(await qr.getAttribute('width')).toBe('200');
    expect(await qr.getAttribute('height')).toBe('200');
    expect(await page.getByTestId('recharge-qr-amount').textContent()).toBe('¥200.00');
    expect(await page.getByTestId('recharge-countdown').textContent()).toMatch(/剩余支付时间(10:00|09:5\d)/);
    orderNo = (await page.getByTestId('recharge-order-no').textContent()) ?? '';
    expect(orderNo).not.toBe('');
    await page.waitForTimeout(1200); // the countdown has ticked
    expect(await page.getByTestId('recharge-countdown').textContent()).toMatch(/09:5\d/);
    await shot(page, 'recharge-qr-1440');

    const qrUrl = (await page.getByTestId('recharge-pay-link').getAttribute('href')) ?? '';
    expect(qrUrl).toMatch(new RegExp(`/api/pay/simulated/${orderNo}$`));
    await payOnSimulatedPage(context, qrUrl);

    // The 1 s poll sees SUCCESS: balance refreshed, then the dialog.
    await dialog(page, '恭喜您，充值成功！').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('recharge-balance').textContent()).toBe('¥200.00');
    await shot(page, 'recharge-success-1440');
    await clickSettled(page, page.getByRole('button', { name: '继续' }));
    await page.waitForURL('**/console/instance');

    const panel = await openAccountPanel(page);
    await panel.getByText('¥200.00').waitFor();
    expect(await panel.textContent()).toContain('可用余额¥200.00');
  });

  it('lists the paid order in /console/recharge-orders', async () => {
    const orders = await visit(context, '/console/recharge-orders');
    expect(await orders.title()).toMatch(/^充值订单 - /);
    const row = orders.getByTestId('recharge-order').filter({ hasText: orderNo });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('¥200.00');
    expect(text).toContain('已支付');
    expect(text).toContain('支付宝');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    // Status filter: nothing pending yet.
    await orders.getByTestId('recharge-orders-status').click();
    await orders.locator('.ant-select-item-option', { hasText: '待支付' }).click();
    await orders.waitForURL('**/console/recharge-orders?status=PENDING');
    await orders.getByTestId('recharge-orders-empty').waitFor();
    expect(await orders.getByTestId('recharge-orders-empty').textContent()).toContain(
      '没有符合条件的充值订单',
    );
    await orders.getByRole('button', { name: '重置' }).click();
    await orders.getByTestId('recharge-order').filter({ hasText: orderNo }).waitFor();
    await orders.mouse.move(0, 0);
    await shot(orders, 'recharge-orders-1440');
    await orders.close();
  });

  it('Back returns to the form; the I-have-paid button checks at once', async () => {
    const again = await visit(context, '/recharge');
    await again.getByTestId('recharge-balance').filter({ hasText: '200.00' }).waitFor();
    await again.getByTestId('recharge-custom').fill('100');
    await again.getByTestId('recharge-submit').click();
    await again.getByTestId('recharge-qr-view').waitFor();
    await again.getByTestId('recharge-paid').click(); // pending: nothing to show
    await again.waitForTimeout(300);
    expect(await again.locator('.ant-modal-confirm').count()).toBe(0);
    await again.getByTestId('recharge-back').click();
    await again.getByTestId('recharge-submit').waitFor();
    expect(await again.getByTestId('recharge-custom').inputValue()).toBe('100');
    await again.close();
  });
});

describe('recharge (phone)', () => {
  let context: BrowserContext;

  beforeAll(async () => {
    context = await newContext(MOBILE);
  });
  afterAll(() => context?.close());

  it('fits the form and the QR view on a 390 px screen', async () => {
    const page = await visit(context, '/recharge');
    await page.getByTestId('recharge-balance').filter({ hasText: '200.00' }).waitFor();
    await page.getByTestId('recharge-preset-500').click();
    await shot(page, 'recharge-form-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByTestId('recharge-submit').click();
    await page.getByTestId('recharge-qr-view').waitFor();
    expect(await page.getByTestId('recharge-qr-amount').textContent()).toBe('¥500.00');
    await shot(page, 'recharge-qr-390');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.getByTestId('recharge-back').click();
    await page.close();
  });

  it('shows the orders as cards on a phone', async () => {
    const page = await visit(context, '/console/recharge-orders');
    await page.getByTestId('recharge-orders-list').getByText('已支付').first().waitFor();
    expect(await page.getByTestId('recharge-order').count()).toBeGreaterThanOrEqual(2);
    await shot(page, 'recharge-orders-390');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.close();
  });
});
