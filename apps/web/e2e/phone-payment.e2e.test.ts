import type { User } from '@gpu/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickSettled, DESKTOP, fundUser, launchBrowser, MOBILE, registerUser } from './helpers';
import { openContext, shot, visit } from './screen-helpers';

// Issue 28, phones: 打开支付宝支付 before the QR (1440 keeps the QR first), the balance behind
// the success dialog already new, and the account drawer loading instead of showing ¥0.00.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

type Session = { accessToken: string; user: User };
const signedIn = (viewport: { width: number; height: number }, who: Session) =>
  openContext(browser, viewport, { token: who.accessToken, user: who.user });

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
}

/** Chooses 200 and submits: the QR view. */
async function startRecharge(page: Page) {
  await page.getByTestId('recharge-balance').filter({ hasText: '0.00' }).waitFor();
  await page.getByTestId('recharge-preset-200').click();
  await page.getByTestId('recharge-submit').click();
  await page.getByTestId('recharge-qr-view').waitFor();
  return (await page.getByTestId('recharge-order-no').textContent()) ?? '';
}

const successDialog = (page: Page) =>
  page.locator('.ant-modal-confirm-title', { hasText: '恭喜您，充值成功！' });

describe('recharge at 390 px', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await signedIn(MOBILE, await registerUser());
    page = await visit(context, '/recharge');
  });
  afterAll(() => context?.close());

  it('puts 打开支付宝支付 first and the QR second; the button opens the pay page the QR encodes', async () => {
    const orderNo = await startRecharge(page);
    const open = page.getByTestId('recharge-open-alipay');
    expect(await open.textContent()).toContain('打开支付宝支付');
    const openBox = await box(open);
    const qrBox = await box(page.getByTestId('recharge-qr'));
    expect(openBox.y + openBox.height).toBeLessThanOrEqual(qrBox.y);
    expect(openBox.height).toBeGreaterThanOrEqual(44);
    expect(openBox.x).toBeGreaterThanOrEqual(0);
    expect(openBox.x + openBox.width).toBeLessThanOrEqual(MOBILE.width);
    // The desktop's small "open in the browser" link would say the same thing twice.
    expect(await page.getByTestId('recharge-pay-link').count()).toBe(0);
    const href = (await open.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`/api/pay/simulated/${orderNo}$`));
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(page, 'phone-recharge-open-alipay');

    // Tapping it opens the simulated pay page (a new tab: this one keeps polling); pay there.
    const [payPage] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await payPage.waitForLoadState();
    expect(new URL(payPage.url()).pathname).toBe(new URL(href).pathname);
    expect(await payPage.locator('h1').textContent()).toBe('模拟支付');
    await payPage.getByRole('button', { name: '确认支付' }).click();
    await payPage.locator('h1', { hasText: '支付成功' }).waitFor();
    await payPage.close();

    // The dialog opens over a page whose balance is already the new one.
    await successDialog(page).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('recharge-balance').textContent()).toBe('¥200.00');
    await shot(page, 'phone-recharge-success', false);
    await clickSettled(page, page.getByRole('button', { name: '留在本页' }));
    await successDialog(page).waitFor({ state: 'detached' });
    // And the account drawer's balance: no wait, no loading.
    await page.getByRole('button', { name: '账户' }).click();
    const panel = page.getByTestId('account-panel');
    await panel.waitFor();
    // (The voucher total may still be loading: this drawer is its first reader.)
    const available = panel.locator('div', { hasText: '可用余额' }).last();
    expect(await available.getByTestId('account-loading').count()).toBe(0);
    expect(await available.textContent()).toBe('可用余额¥200.00');
  });
});

describe('recharge at 1440 px', () => {
  it('keeps the QR first, without the phone button', async () => {
    const context = await signedIn(DESKTOP, await registerUser());
    const page = await visit(context, '/recharge');
    await startRecharge(page);
    expect(await page.getByTestId('recharge-open-alipay').count()).toBe(0);
    const qrBox = await box(page.getByTestId('recharge-qr'));
    const linkBox = await box(page.getByTestId('recharge-pay-link'));
    expect(qrBox.y + qrBox.height).toBeLessThanOrEqual(linkBox.y);
    await context.close();
  });
});

describe('account drawer at 390 px', () => {
  it('shows a loading state until the balance arrives, never ¥0.00, then the real figure', async () => {
    const who = await registerUser();
    await fundUser(who.accessToken, 300);
    const context = await signedIn(MOBILE, who);
    // Hold the balance answer until the drawer has been looked at.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.route('**/api/user/balance', async (route) => {
      await held;
      await route.continue();
    });
    const page = await visit(context, '/market');
    await page.getByRole('button', { name: '账户' }).click();
    const panel = page.getByTestId('account-panel');
    await panel.waitFor();
    const available = panel.locator('div', { hasText: '可用余额' }).last();
    await available.getByTestId('account-loading').waitFor();
    expect(await available.locator('dd').getAttribute('aria-busy')).toBe('true');
    expect(await available.textContent()).not.toContain('¥0.00');
    expect(await panel.textContent()).not.toMatch(/可用余额¥|冻结余额¥/);
    await page.waitForTimeout(400); // the drawer's slide
    await shot(page, 'phone-account-drawer-loading', false);

    release();
    await expect.poll(() => available.textContent()).toBe('可用余额¥300.00');
    expect(await panel.getByTestId('account-loading').count()).toBe(0);
    await context.close();
  });
});
