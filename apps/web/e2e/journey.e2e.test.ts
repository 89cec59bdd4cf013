import path from 'node:path';
import type { Bill, Instance, Page as ListPage, User } from '@gpu/shared';
import { formatMoney, yuanToUnits } from '@gpu/shared/money';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  answerConfirm,
  clickSettled,
  confirmRelease,
  DESKTOP,
  launchBrowser,
  registerUser,
  seedSession,
  settledInstance,
  siteUrl,
  userCall,
} from './helpers';

// Issue 7's whole journey in one tab, every step through the screens: recharge 200 by the
// simulated Alipay QR → market (包日) → subscribe a daily L40S package → RUNNING in the console →
// power off → power on → release; then the balance, the bills and the overview agree.

const L40S_HOST = 'nm-a-l40s-01';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: { accessToken: string; user: User };
let instance: Instance;
const name = `journey-${Date.now() % 100000}`;

const userApi = <T>(urlPath: string) => userCall<T>(session.accessToken, urlPath);

const balance = async () => (await userApi<{ available: number }>('/user/balance')).available;
const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `journey-${name}.png`) });
const toast = (text: string) =>
  page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
const row = () => page.getByTestId(`instance-row-${instance.id}`);
const statusIs = (text: string) =>
  row().getByTestId('instance-status').filter({ hasText: text }).waitFor({ timeout: 15_000 });

async function confirmAction(action: string) {
  await row().getByRole('button', { name: action }).click();
  await answerConfirm(page, action);
}

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  await seedSession(context, { token: session.accessToken, user: session.user });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('a new customer, start to finish', () => {
  it('recharges 200 through the QR code and lands in the console', async () => {
    await page.goto(siteUrl('localhost', '/recharge'));
    await page.getByTestId('recharge-preset-200').click();
    await page.getByTestId('recharge-submit').click();
    const qrUrl = (await page.getByTestId('recharge-pay-link').getAttribute('href')) ?? '';
    const phone = await context.newPage();
    await phone.goto(qrUrl);
    await phone.getByRole('button', { name: '确认支付' }).click();
    await phone.locator('h1', { hasText: '支付成功' }).waitFor();
    await phone.close();
    await page
      .locator('.ant-modal-confirm-title', { hasText: '恭喜您，充值成功！' })
      .waitFor({ timeout: 10_000 });
    await clickSettled(page, page.getByRole('button', { name: '继续' }));
    await page.waitForURL('**/console/instance');
    expect(await balance()).toBe(200);
  });

  it('finds the L40S host in the market under 包日 and goes to subscribe', async () => {
    await page.goto(siteUrl('localhost', '/market'));
    await page.getByTestId('filter-billing').getByText('包日', { exact: true }).click();
    await page.waitForURL(/billingType=daily/);
    // The whole name, in capitals: host search ignores case, and the market test adds
    // e2e-market-l40s-NN hosts that a shorter search would also find.
    await page.getByTestId('filter-keyword').fill(L40S_HOST.toUpperCase());
    await page.keyboard.press('Enter');
    await page.waitForURL(/keyword=NM-A-L40S-01/);
    // The grid settles on the one machine whose name matches.
    await page.waitForFunction(() => {
      const grid = document.querySelector('[data-testid=market-grid]');
      return (
        grid?.getAttribute('aria-busy') !== 'true' &&
        grid?.querySelectorAll('[data-testid=gpu-card]').length === 1
      );
    });
    const card = page.getByTestId('gpu-card').filter({ hasText: L40S_HOST });
    expect(await card.getByTestId('gpu-card-price').textContent()).toContain('/天');
    await card.getByTestId('gpu-card-subscribe').click();
    await page.waitForURL('**/subscribe?**');
    expect(new URL(page.url()).searchParams.get('billingType')).toBe('daily');
  });

  it('subscribes a daily package and is charged exactly what the bar showed', async () => {
    await page.getByTestId('host-card').waitFor();
    await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor();
    const payable = Number((await page.getByTestId('bar-payable').textContent())?.replace(/[^\d.]/g, ''));
    expect(payable).toBeGreaterThan(0);
    await page.getByTestId('image-trigger').click();
    for (const [group, choice] of [
      ['image-framework', 'PyTorch'],
      ['image-version', '2.5.1'],
      ['image-python', 'Python 3.12'],
      ['image-accelerator', 'CUDA 12.4'],
    ] as const) {
      await page.getByTestId(group).getByRole('radio', { name: choice, exact: true }).click();
    }
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid="image-confirm"]')?.disabled,
    );
    await page.getByTestId('image-confirm').click();
    await page.getByTestId('instance-name').fill(name);
    await shot('subscribe');
    await page.getByTestId('create-button').click();
    // A package asks before it takes the money.
    await answerConfirm(page, '确认支付并创建');
    await page.getByText('容器创建成功，计费已开始！').waitFor();
    await page.waitForURL('**/console/instance');

    const list = await userApi<ListPage<Instance>>('/gpu/instances?page=1&size=10');
    const accepted = list.list.find((i) => i.name === name) as Instance;
    // Accepted at once; the provisioning job then takes it to RUNNING.
    instance = await settledInstance<Instance>(session.accessToken, accepted.id);
    expect(instance).toMatchObject({ billingType: 'daily', hostName: L40S_HOST, status: 'RUNNING' });
    expect(yuanToUnits(await balance())).toBe(yuanToUnits(200) - yuanToUnits(payable));
    expect(yuanToUnits(instance.charged)).toBe(yuanToUnits(payable));
  });

  it('powers the instance off and on, then releases it', async () => {
    await statusIs('运行中');
    await shot('console-running');
    await confirmAction('关机');
    await toast('实例已关机');
    await statusIs('已关机');
    await confirmAction('开机');
    await toast('实例已开机');
    await statusIs('运行中');
    await row().getByRole('button', { name: '释放' }).click();
    await confirmRelease(page, name);
    await toast('实例已释放');
    await statusIs('已释放');
    await shot('console-released');
  });

  it('ends with balance, bills and the overview in agreement: 200 = balance + charges', async () => {
    const bills = (await userApi<ListPage<Bill>>('/v2/billing/records?page=1&size=100')).list;
    const charged = bills.reduce((n, b) => n + yuanToUnits(b.amount), 0);
    expect(bills).toHaveLength(1);
    expect(charged).toBe(yuanToUnits(instance.charged));
    const available = await balance();
    expect(yuanToUnits(available) + charged).toBe(yuanToUnits(200));

    await page.goto(siteUrl('localhost', '/console/bills'));
    await page
      .getByTestId('stat-total')
      .filter({ hasText: formatMoney(instance.charged) })
      .waitFor();
    await page.goto(siteUrl('localhost', '/console/homepage'));
    await page
      .getByTestId('overview-balance')
      .filter({ hasText: formatMoney(available) })
      .waitFor();
    await page.getByTestId('user-menu').hover();
    await page.getByTestId('account-panel').getByText(formatMoney(available)).first().waitFor();
    await page.waitForTimeout(1_200); // the chart's entry animation
    await shot('console-homepage');
  });
});
