import type { Envelope, Instance, MarketItem, MarketList, User } from '@gpu/shared';
import { yuanToUnits } from '@gpu/shared/money';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  seedSession,
  settledInstance,
  shot,
  siteUrl,
  userCall,
} from './helpers';

// Issue 11 end to end: an admin creates a voucher config and distributes it to one phone; the
// user sees it in /console/vouchers, uses it on subscribe and pays exactly the amount shown;
// balance, bills and the voucher's remaining amount agree.
const L40S_HOST = 'nm-a-l40s-01';
const CONFIG_NAME = `E2E券${Date.now() % 100000}`;

let browser: Browser;
let session: { accessToken: string; user: User };
let admin: Awaited<ReturnType<typeof adminLogin>>;
let l40s: MarketItem;

const userApi = <T>(urlPath: string, body?: unknown) => userCall<T>(session.accessToken, urlPath, body);
const balance = async () => (await userApi<{ available: number }>('/user/balance')).available;
const yuanShown = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).textContent())?.replace(/[^\d.]/g, ''));

async function adminPage(viewport: { width: number; height: number }, urlPath: string) {
  const context = await browser.newContext({ viewport });
  await seedSession(context, { adminToken: admin.token, admin: admin.admin });
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', urlPath));
  return { context, page };
}
async function userPage(viewport: { width: number; height: number }, urlPath: string) {
  const context = await browser.newContext({ viewport });
  await seedSession(context, { token: session.accessToken, user: session.user });
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', urlPath));
  return { context, page };
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminLogin();
  session = await registerUser();
  await fundUser(session.accessToken, 500);
  const market = await userApi<MarketList>('/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === L40S_HOST);
  if (!item) throw new Error(`${L40S_HOST} is not in the market`);
  l40s = item;
});
afterAll(() => browser?.close());

describe('vouchers end to end', () => {
  let contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
    contexts = [];
  });

  it('an admin creates a config in /admin/voucher-config', async () => {
    const { context, page } = await adminPage(DESKTOP, '/admin/voucher-config');
    contexts.push(context);
    await page.getByTestId('config-create').click();
    await page.getByTestId('config-name').fill(CONFIG_NAME);
    await page.getByTestId('config-face').fill('30');
    await page.getByTestId('config-save').click();
    await page.getByTestId('config-table').getByText(CONFIG_NAME).waitFor();
    await shot(page, 'admin-voucher-config-desktop');
  });

  it('distributes it to the user’s phone: preview count, confirm, history with detail', async () => {
    const { context, page } = await adminPage(DESKTOP, '/admin/voucher-distribution');
    contexts.push(context);
    await page.getByTestId('dist-config').click();
    await page.getByTitle(`${CONFIG_NAME}（¥30）`).click();
    await page.getByTestId('dist-phones').fill(session.user.phone);
    await page.getByTestId('dist-preview').click();
    expect(await page.getByTestId('dist-preview-result').textContent()).toContain('共 1 位用户');
    await page.getByTestId('dist-execute').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await page.getByText('已发放 1 张代金券').waitFor();
    await page.getByTestId('distribution-detail').first().click();
    await page.locator('.ant-drawer').getByRole('cell', { name: session.user.phone }).first().waitFor();
    await shot(page, 'admin-voucher-distribution-desktop');
  });

  it('the user sees it in /console/vouchers with stats, and the account menu total', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ] as const) {
      const { context, page } = await userPage(viewport, '/console/vouchers');
      contexts.push(context);
      await page.getByTestId('voucher-card').first().waitFor();
      expect(await page.getByTestId('voucher-card').count()).toBe(1);
      expect(await page.getByTestId('voucher-remaining').textContent()).toBe('30.00');
      expect(await page.getByTestId('voucher-use').count()).toBe(1);
      await shot(page, `console-vouchers-${name}`);
    }
    const stats = await userApi<{ totalValue: number }>('/user/vouchers/stats');
    expect(stats.totalValue).toBe(30);
  });

  it('uses it on subscribe, pays the amount shown; balance, bills and voucher agree', async () => {
    const before = await balance();
    const { context, page } = await userPage(
      DESKTOP,
      `/subscribe?skuGpuId=${l40s.skuGpuId}&billingType=daily`,
    );
    contexts.push(context);
    await page.getByTestId('host-card').waitFor();
    await page.getByTestId('voucher-open').click();
    const dialog = page.getByTestId('voucher-dialog');
    await dialog.getByTestId('voucher-card').first().waitFor();
    await dialog.getByRole('button', { name: `使用 ${CONFIG_NAME}` }).click();
    await page.getByTestId('voucher-chosen').waitFor();
    await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor();
    const deduction = await yuanShown(page, 'bar-voucher');
    const payable = await yuanShown(page, 'bar-payable');
    expect(deduction).toBe(30);
    await shot(page, 'subscribe-with-voucher-desktop');

    await page.getByTestId('image-trigger').click();
    for (const [group, name] of [
      ['image-framework', 'PyTorch'],
      ['image-version', '2.5.1'],
      ['image-python', 'Python 3.12'],
      ['image-accelerator', 'CUDA 12.4'],
    ] as const)
      await page.getByTestId(group).getByRole('radio', { name, exact: true }).click();
    await page.waitForFunction(() => {
      const confirm = document.querySelector<HTMLButtonElement>('[data-testid="image-confirm"]');
      return confirm !== null && !confirm.disabled;
    });
    await page.getByTestId('image-confirm').click();
    await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
    await page.getByTestId('instance-name').fill(`e2e-voucher-${Date.now() % 100000}`);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
    await page.getByTestId('create-button').click();
    const body = (await (await created).json()) as Envelope<Instance>;
    expect(body.success, body.message).toBe(true);
    await page.waitForURL((url) => url.pathname.startsWith('/console'));
    await settledInstance<Instance>(session.accessToken, body.data.id);

    expect(yuanToUnits(await balance())).toBe(yuanToUnits(before) - yuanToUnits(payable));
    const bills = await userApi<{ list: { instanceId: number; amount: number; voucherAmount: number }[] }>(
      '/v2/billing/user/records?page=1&size=50',
    );
    const mine = bills.list.filter((b) => b.instanceId === body.data.id);
    expect(mine.reduce((n, b) => n + b.amount, 0)).toBeCloseTo(payable, 2);
    expect(mine.reduce((n, b) => n + b.voucherAmount, 0)).toBeCloseTo(30, 2);
    const vouchers = await userApi<{ list: { remainingAmount: number; status: string }[] }>('/user/vouchers');
    expect(vouchers.list[0]).toMatchObject({ remainingAmount: 0, status: 'USED' });
  });

  it('admin screens at both widths', async () => {
    // What each screen shows once loaded: its figures or a row of its table.
    const ready: Record<string, (page: Page) => Promise<void>> = {
      dashboard: (page) => page.getByTestId('admin-figures').waitFor(),
      'discount-config': (page) =>
        page.getByTestId('discount-table').locator('.ant-table-row').first().waitFor(),
      'voucher-config': (page) => page.getByTestId('config-table').getByText(CONFIG_NAME).waitFor(),
      'voucher-distribution': (page) => page.locator('.ant-table-row').first().waitFor(),
    };
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ] as const) {
      for (const [screen, loaded] of Object.entries(ready)) {
        const { context, page } = await adminPage(viewport, `/admin/${screen}`);
        contexts.push(context);
        await loaded(page);
        await shot(page, `admin-${screen}-${name}`);
        await context.close();
      }
    }
  });
});
