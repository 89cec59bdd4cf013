import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bill, Instance, Page as ListPage, MarketList, User } from '@gpu/shared';
import { formatMoney } from '@gpu/shared/money';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  clickSettled,
  confirmInstanceAction,
  confirmRelease,
  DESKTOP,
  fundUser,
  instanceStatusIs,
  launchBrowser,
  MOBILE,
  openPage,
  registerUser,
  seedSession,
  settledInstance,
  shot,
  siteUrl,
  titled,
  toast,
  userCall,
} from './helpers';

// The console (SPEC.md §2, §4; issue 7 web part) against the real server: a fresh user funded
// through the simulated payment provider rents a daily package on nm-a-l40s-01 through the API,
// then drives it from /console/instance and checks bills, export and the overview.

const L40S_HOST = 'nm-a-l40s-01';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';
const NAME = 'e2e-box';

let browser: Browser;
let context: BrowserContext;
let session: { accessToken: string; user: User };
let created: Instance;
let tenantName: string;

const userApi = <T>(urlPath: string, body?: unknown) => userCall<T>(session.accessToken, urlPath, body);
const fund = (amount: number) => fundUser(session.accessToken, amount);
const balance = async () => (await userApi<{ available: number }>('/user/balance')).available;
const instanceNow = async () =>
  (await userApi<ListPage<Instance>>('/gpu/instances?page=1&size=10')).list.find((i) => i.id === created.id);

const open = (urlPath: string, viewport?: { width: number; height: number }) =>
  openPage(context, urlPath, viewport);

/** The status tag of our instance shows `text`. */
const statusIs = (page: Page, text: string, timeout?: number) =>
  instanceStatusIs(page, created.id, text, timeout);
/** Clicks a row action and the confirm dialog's OK button. */
const confirmAction = (page: Page, action: string) => confirmInstanceAction(page, created.id, action);

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  await fund(500);
  const market = await userApi<MarketList>('/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === L40S_HOST);
  if (!item) throw new Error(`${L40S_HOST} is not in the market`);
  const accepted = await userApi<Instance>('/gpu/instance/create', {
    machineId: item.id,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'daily',
    duration: 1,
    instanceName: NAME,
  });
  expect(accepted.status).toBe('CREATING');
  created = await settledInstance<Instance>(session.accessToken, accepted.id);
  tenantName = (await userApi<{ tenantName: string }>('/tenant/config')).tenantName;
  context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  await seedSession(context, { token: session.accessToken, user: session.user });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('console: one daily package from RUNNING to RELEASED', () => {
  let page: Page;
  beforeAll(async () => {
    page = await open('/console/instance');
  });
  afterAll(() => page?.close());

  it('lists the new instance RUNNING with GPU, place, package price, charge, expiry and SSH access', async () => {
    expect(created.status).toBe('RUNNING');
    await titled(page, `容器实例 - ${tenantName}`);
    await statusIs(page, '运行中');
    const row = page.getByTestId(`instance-row-${created.id}`);
    expect(await row.getByTestId('instance-name').textContent()).toBe(NAME);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(`L40S × 1`);
    expect(text).toContain(L40S_HOST);
    expect(text).toContain('包日');
    expect(text).toContain(`${formatMoney(created.packagePrice ?? 0)}/天`);
    expect(text).toContain('到期');
    expect(await row.getByTestId('instance-charged').textContent()).toBe(formatMoney(created.charged));
    expect(created.sshCommand).toBeTruthy();
    expect(await row.getByTestId('ssh-command').textContent()).toContain(created.sshCommand as string);
    const jupyter = row.getByTestId('jupyter-link');
    // With its token: JupyterLab opens without asking for one (issue "What customers see").
    expect(await jupyter.getAttribute('href')).toBe(
      `${created.jupyterUrl}?token=${encodeURIComponent(created.jupyterToken as string)}`,
    );
    expect(await jupyter.getAttribute('target')).toBe('_blank');
    await shot(page, 'console-instance-1440');
  });

  it('keeps the password hidden until the eye is clicked', async () => {
    const row = page.getByTestId(`instance-row-${created.id}`);
    const password = row.getByTestId('ssh-password');
    expect(await password.textContent()).not.toContain(created.sshPassword as string);
    await row.getByRole('button', { name: '显示密码' }).click();
    expect(await password.textContent()).toContain(created.sshPassword as string);
    await row.getByRole('button', { name: '隐藏密码' }).click();
    expect(await password.textContent()).not.toContain(created.sshPassword as string);
  });

  it('powers off after a confirmation → 已关机 (a package keeps its GPUs)', async () => {
    await confirmAction(page, '关机');
    await toast(page, '实例已关机');
    await statusIs(page, '已关机');
    expect((await instanceNow())?.status).toBe('STOPPED');
    const row = page.getByTestId(`instance-row-${created.id}`);
    expect(await row.getByRole('button', { name: '开机' }).isEnabled()).toBe(true);
    expect(await row.getByRole('button', { name: '释放' }).isEnabled()).toBe(true);
    // No SSH while stopped; the data-retention notice shows above the list.
    expect(await row.getByTestId('ssh-command').count()).toBe(0);
    expect(await page.getByTestId('instance-notices').textContent()).toContain(NAME);
    await shot(page, 'console-instance-stopped-1440');
  });

  it('powers on after a confirmation → 运行中', async () => {
    await confirmAction(page, '开机');
    await toast(page, '实例已开机');
    await statusIs(page, '运行中');
    expect((await instanceNow())?.status).toBe('RUNNING');
    await page.getByTestId(`instance-row-${created.id}`).getByTestId('ssh-command').waitFor();
  });

  it('renews the package by a day: the dialog shows the price and the new expiry', async () => {
    const before = await instanceNow();
    const pricing = await userApi<{ options: { duration: number; amount: number; newExpiresAt: string }[] }>(
      `/v2/package-billing/renewal-pricing/${created.id}`,
    );
    const one = pricing.options[0];
    if (!one) throw new Error('no renewal option');
    await page.getByTestId(`instance-row-${created.id}`).getByRole('button', { name: '续费' }).click();
    const amount = page.getByTestId('renew-amount');
    await amount.waitFor();
    expect(await amount.textContent()).toBe(formatMoney(one.amount));
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-renew-dialog-1440.png') });
    await clickSettled(page, page.getByTestId('renew-confirm'));
    await toast(page, '续费成功');
    const after = await instanceNow();
    expect(new Date(after?.expiresAt ?? 0).getTime()).toBe(new Date(one.newExpiresAt).getTime());
    expect(after?.charged).toBeCloseTo((before?.charged ?? 0) + one.amount, 4);
  });

  it('shows cards at 390 px with the same actions', async () => {
    const mobile = await open('/console/instance', MOBILE);
    const card = mobile.getByTestId(`instance-card-${created.id}`);
    await card.waitFor();
    expect(await card.getByTestId('instance-status').textContent()).toBe('运行中');
    expect(await card.getByTestId('ssh-command').textContent()).toContain(created.sshCommand as string);
    for (const name of ['关机', '续费', '释放']) {
      expect(await card.getByRole('button', { name }).isVisible()).toBe(true);
    }
    // Nothing wider than the screen.
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      MOBILE.width,
    );
    await shot(mobile, 'console-instance-390');
    await mobile.close();
  });

  it('releases only once the instance name is typed → 已释放', async () => {
    const row = page.getByTestId(`instance-row-${created.id}`);
    await row.getByRole('button', { name: '释放' }).click();
    await confirmRelease(page, NAME, async (confirm) => {
      expect(await confirm.isDisabled()).toBe(true);
      await page.getByTestId('release-name').fill('wrong-name');
      expect(await confirm.isDisabled()).toBe(true);
      await page.getByTestId('release-name').fill(NAME);
      expect(await confirm.isEnabled()).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-release-dialog-1440.png') });
    });
    await toast(page, '实例已释放');
    await statusIs(page, '已释放');
    expect((await instanceNow())?.status).toBe('RELEASED');
    // A released instance offers no actions and no access.
    expect(await row.getByRole('button').count()).toBe(0);
  });
});

describe('console: money after the run', () => {
  let bills: Bill[];
  beforeAll(async () => {
    bills = (await userApi<ListPage<Bill>>('/v2/billing/records?page=1&size=100')).list;
  });

  it('/console/bills lists the package charge and the renewal, with the totals', async () => {
    expect(bills.map((b) => b.kind).sort()).toEqual(['create', 'renewal']);
    const page = await open('/console/bills');
    await titled(page, `费用明细 - ${tenantName}`);
    for (const bill of bills) {
      const row = page.getByTestId(`bill-row-${bill.id}`);
      await row.waitFor();
      expect(await row.getByTestId('bill-amount').textContent()).toBe(formatMoney(bill.amount));
      expect(await row.textContent()).toContain(NAME);
    }
    const total = bills.reduce((n, b) => n + b.amount, 0);
    await page
      .getByTestId('stat-total')
      .filter({ hasText: formatMoney(total) })
      .waitFor();
    expect(await page.getByTestId('stat-records').textContent()).toBe(String(bills.length));

    // Filter by kind: only the renewal.
    await page.getByRole('combobox', { name: '类型' }).click();
    await page.locator('.ant-select-dropdown').getByText('续费', { exact: true }).click();
    const renewal = bills.find((b) => b.kind === 'renewal') as Bill;
    const create = bills.find((b) => b.kind === 'create') as Bill;
    await page.getByTestId(`bill-row-${create.id}`).waitFor({ state: 'detached' });
    expect(await page.getByTestId(`bill-row-${renewal.id}`).isVisible()).toBe(true);
    await page.getByRole('button', { name: '重置' }).click();
    await page.getByTestId(`bill-row-${create.id}`).waitFor();
    await shot(page, 'console-bills-1440');

    // Export: an .xlsx file (a zip: "PK") and a CSV with both records.
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-xlsx').click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/^费用明细-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const xlsxPath = path.join(ARTIFACTS, 'console-bills-export.xlsx');
    await xlsx.saveAs(xlsxPath);
    expect(readFileSync(xlsxPath).subarray(0, 2).toString()).toBe('PK');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const csvPath = path.join(ARTIFACTS, 'console-bills-export.csv');
    await csv.saveAs(csvPath);
    const lines = readFileSync(csvPath, 'utf8').trim().split(/\r\n/);
    expect(lines).toHaveLength(1 + bills.length);
    expect(lines[1]).toContain(NAME);
    await page.close();

    const mobile = await open('/console/bills', MOBILE);
    await mobile.getByTestId(`bill-row-${create.id}`).waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      MOBILE.width,
    );
    await shot(mobile, 'console-bills-390');
    await mobile.close();
  });

  it('/console/orders shows the create and renewal orders', async () => {
    const page = await open('/console/orders');
    await titled(page, `我的订单 - ${tenantName}`);
    for (const bill of bills) await page.getByTestId(`bill-row-${bill.id}`).waitFor();
    expect(await page.getByText('新购', { exact: true }).count()).toBeGreaterThan(0);
    await shot(page, 'console-orders-1440');
    await page.close();
    const mobile = await open('/console/orders', MOBILE);
    for (const bill of bills) await mobile.getByTestId(`bill-row-${bill.id}`).waitFor();
    await shot(mobile, 'console-orders-390');
    await mobile.close();
  });

  it('/console/homepage: the balance is 500 minus the charges; the chart and spend agree', async () => {
    const spent = bills.reduce((n, b) => n + b.amount, 0);
    const available = await balance();
    expect(available).toBeCloseTo(500 - spent, 4);
    for (const [viewport, name] of [
      [DESKTOP, '1440'],
      [MOBILE, '390'],
    ] as const) {
      const page = await open('/console/homepage', viewport);
      await titled(page, `控制台首页 - ${tenantName}`);
      await page
        .getByTestId('overview-balance')
        .filter({ hasText: formatMoney(available) })
        .waitFor();
      await page
        .getByTestId('overview-today')
        .filter({ hasText: formatMoney(spent) })
        .waitFor();
      expect(await page.getByTestId('overview-month').textContent()).toBe(formatMoney(spent));
      expect(await page.getByTestId('overview-running').textContent()).toContain('0');
      const chart = page.getByTestId('daily-chart');
      await chart.locator('canvas').waitFor();
      expect(await chart.getAttribute('data-points')).toBe('30');
      expect(await page.getByTestId('recent-instances').textContent()).toContain(NAME);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.waitForTimeout(1_200); // the chart's entry animation
      await shot(page, `console-homepage-${name}`);
      await page.close();
    }
  });

  it('/console/instance with no instances shows the way to the market', async () => {
    const other = await registerUser();
    const ctx = await browser.newContext({ viewport: MOBILE });
    await seedSession(ctx, { token: other.accessToken, user: other.user });
    const page = await ctx.newPage();
    await page.goto(siteUrl('localhost', '/console/instance'));
    const link = page.getByTestId('empty-to-market');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/market');
    await ctx.close();
  });
});
