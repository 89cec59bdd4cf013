import type { Instance, MarketList, User } from '@gpu/shared';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  chooseOption,
  clickSettled,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  openPage,
  registerUser,
  seedSession,
  settledInstance,
  shot,
  toast,
  userCall,
} from './helpers';

// The back office's operations screens (issue 12) against the real server: a user rents a
// pay-as-you-go L40S through the API; the admin finds it in instance management, force-stops it
// with a reason, finds that in the audit log; the user's console shows it stopped and the notice.

const L40S_HOST = 'nm-a-l40s-01';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';
const NAME = `ops-e2e-${Date.now() % 100_000}`;
const REASON = '主机维护，临时停止';

let browser: Browser;
let adminContext: BrowserContext;
let userContext: BrowserContext;
let session: { accessToken: string; user: User };
let created: Instance;
/** A second user whose 100 yuan covers two L40S for about 12.5 hours: a balance warning. */
let poor: { accessToken: string; user: User };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  await fundUser(session.accessToken, 500);
  const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === L40S_HOST);
  if (!item) throw new Error(`${L40S_HOST} is not in the market`);
  const accepted = await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
    machineId: item.id,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
    instanceName: NAME,
  });
  created = await settledInstance<Instance>(session.accessToken, accepted.id);
  poor = await registerUser();
  await fundUser(poor.accessToken, 100);
  const second = await userCall<Instance>(poor.accessToken, '/gpu/instance/create', {
    machineId: item.id,
    image: IMAGE,
    gpuAmount: 2,
    billingType: 'hourly',
    instanceName: `${NAME}-poor`,
  });
  expect((await settledInstance<Instance>(poor.accessToken, second.id)).status).toBe('RUNNING');
  const admin = await adminLogin();
  adminContext = await browser.newContext({ viewport: DESKTOP });
  await seedSession(adminContext, { adminToken: admin.token, admin: admin.admin });
  userContext = await browser.newContext({ viewport: DESKTOP });
  await seedSession(userContext, { token: session.accessToken, user: session.user });
});
afterAll(async () => {
  await adminContext?.close();
  await userContext?.close();
  await browser?.close();
});

describe('admin force-stops a user instance and the user is told', () => {
  it('instance management lists the running instance and force-stops it with a reason', async () => {
    expect(created.status).toBe('RUNNING');
    const page = await openPage(adminContext, '/admin/instance-management');
    await page.getByTestId('ops-instance-search').locator('input').fill(NAME);
    await page.getByTestId('ops-instance-search').locator('input').press('Enter');
    const row = page.getByTestId(`ops-instance-${created.id}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain(session.user.phone);
    expect(await row.getByTestId('ops-instance-status').textContent()).toBe('运行中');
    expect(await page.getByTestId('stat-running').textContent()).toMatch(/运行中实例\d+/);
    await shot(page, 'admin-instance-management-1440');

    await row.getByTestId('ops-action-force-stop').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '强制停止实例' });
    await dialog.waitFor();
    // The reason is required: OK without one names it and changes nothing.
    await clickSettled(page, dialog.getByTestId('reason-ok'));
    await dialog.getByText('请填写操作原因').waitFor();
    await dialog.getByTestId('reason-input').fill(REASON);
    await dialog.getByTestId('reason-ok').click();
    await toast(page, '实例已强制停止，计费已停止', 15_000);
    // 实例管理 lists every status (issue 28): the row stays, powered off, with nothing to force.
    await row.getByTestId('ops-instance-status').filter({ hasText: '已关机' }).waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('ops-action-force-stop').count()).toBe(0);
    await page.close();
  });

  it('the audit log shows the force-stop with its reason, before and after', async () => {
    const page = await openPage(adminContext, '/admin/dashboard');
    await page.locator('.ant-menu').getByText('操作日志').click();
    await page.waitForURL('**/admin/audit-logs');
    await page.getByTestId('audit-target-filter').locator('input').fill(`instance:${created.id}`);
    await page.getByTestId('audit-target-filter').locator('input').press('Enter');
    const row = page.getByTestId('audit-row').filter({ hasText: '强制停止实例' });
    await row.first().waitFor({ timeout: 15_000 });
    // The filtered answer replaces the unfiltered list; count once it has.
    await expect.poll(() => page.getByTestId('audit-row').count()).toBe(1);
    expect(await row.textContent()).toContain('admin');
    await shot(page, 'admin-audit-logs-1440');
    await row.getByTestId('audit-detail-open').click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByTestId('audit-changes').waitFor();
    await page.waitForTimeout(500); // the drawer's slide-in, for the screenshot
    // Field by field under Chinese names: 状态 went from 运行中 (RUNNING) to 已关机 (STOPPED).
    const status = drawer.getByTestId('audit-changes').locator('tbody tr').filter({ hasText: '状态' });
    expect(await status.locator('td').allTextContents()).toEqual(['状态', '运行中', '已关机']);
    expect(await drawer.getByTestId('audit-detail-action').textContent()).toBe('强制停止实例');
    expect(await drawer.getByTestId('audit-detail-target').textContent()).toBe(`实例 #${created.id}`);
    const rest = await drawer.getByTestId('audit-detail-json').textContent();
    expect(rest).toContain(`原因${REASON}`);
    expect(rest).toContain('用户编号');
    await shot(page, 'admin-audit-detail-1440');
    await page.close();
  });

  it('the audit log filters by administrator, picked by name', async () => {
    // A failed sign-in with an unknown name is logged without an administrator.
    const stranger = `nobody-${Date.now() % 100_000}`;
    await expect(
      api('/admin/auth/login', { body: { username: stranger, password: 'Wrong12345' } }),
    ).rejects.toThrow();
    for (const [viewport, name] of [
      [DESKTOP, '1440'],
      [MOBILE, '390'],
    ] as const) {
      const page = await openPage(adminContext, '/admin/audit-logs', viewport);
      const rows = page.getByTestId('audit-row');
      const strangerRow = rows.filter({ hasText: stranger });
      await strangerRow.first().waitFor({ timeout: 15_000 });
      expect(await strangerRow.locator('td').nth(1).textContent()).toBe('-');

      const filter = page.getByTestId('audit-admin-filter');
      expect(await filter.textContent()).toBe('全部管理员');
      await chooseOption(page, filter, 'admin');
      // Only that administrator's rows are left (the force-stop among them), the stranger's gone.
      await strangerRow.first().waitFor({ state: 'detached', timeout: 15_000 });
      await rows.filter({ hasText: '强制停止实例' }).first().waitFor();
      const admins = await rows.evaluateAll((trs) =>
        trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent),
      );
      expect(admins.length).toBeGreaterThan(1);
      expect(new Set(admins)).toEqual(new Set(['admin']));
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
      await shot(page, `admin-audit-logs-by-admin-${name}`);

      await chooseOption(page, filter, '全部管理员');
      await strangerRow.first().waitFor({ timeout: 15_000 });
      await page.close();
    }
  });

  it("the user's console shows the instance stopped and the admin's notice", async () => {
    const page = await openPage(userContext, '/console/instance');
    const notice = page.getByTestId('user-notice').filter({ hasText: '实例已被管理员强制停止' });
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain(`您的实例「${NAME}」已被管理员强制停止，原因：${REASON}`);
    await page
      .getByTestId(`instance-row-${created.id}`)
      .getByTestId('instance-status')
      .filter({ hasText: '已关机' })
      .waitFor({ timeout: 15_000 });
    await shot(page, 'user-console-notice-1440');
    // Acknowledged, it goes away and stays away.
    await notice.getByRole('button', { name: '知道了' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId(`instance-row-${created.id}`).waitFor();
    expect(await page.getByTestId('user-notice').count()).toBe(0);
    await page.close();
  });
});

describe('the other operations screens', () => {
  it('user management finds the user by phone and shows their instances and balance', async () => {
    const page = await openPage(adminContext, '/admin/user-management');
    await page.getByTestId('user-search').locator('input').fill(session.user.phone);
    await page.getByTestId('user-search').locator('input').press('Enter');
    const row = page.getByTestId(`user-row-${session.user.id}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('运行 0 / 共 1');
    await page.waitForLoadState('networkidle');
    await page.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
    await shot(page, 'admin-user-management-1440');
    await row.getByTestId('user-instances').click();
    const drawer = page.locator('.ant-drawer');
    const inst = drawer.getByTestId(`ops-instance-${created.id}`);
    await inst.waitFor();
    await page.waitForTimeout(500);
    expect(await inst.getByTestId('ops-instance-status').textContent()).toBe('已关机');
    // A stopped instance can be started or terminated, not powered off.
    expect(await inst.getByTestId('ops-action-start').count()).toBe(1);
    expect(await inst.getByTestId('ops-action-power-off').count()).toBe(0);
    await shot(page, 'admin-user-instances-1440');
    await page.close();
  });

  it('balance monitoring warns about the poor user; an adjustment with a reason lifts the warning', async () => {
    const page = await openPage(adminContext, '/admin/balance-monitoring');
    const row = page.getByTestId(`warning-${poor.user.id}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain(poor.user.phone);
    expect(await row.textContent()).toContain('¥7.96');
    await shot(page, 'admin-balance-warnings-1440');
    await row.getByTestId('warning-adjust').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '调整用户余额' });
    await dialog.waitFor();
    // A click during the zoom-in once missed the OK button (CI).
    await clickSettled(page, dialog.getByRole('button', { name: '确定调整' }));
    await dialog.getByText('请输入调整金额').waitFor();
    await dialog.locator('input').first().fill('200');
    await dialog.locator('textarea').fill('大客户授信');
    await dialog.getByRole('button', { name: '确定调整' }).click();
    await toast(page, '余额已调整', 15_000);
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    expect(
      (await userCall<{ available: number }>(poor.accessToken, '/user/balance')).available,
    ).toBeGreaterThan(290);
    await page.close();
  });

  it('balance monitoring runs the manual check and finds the ledger healthy', async () => {
    const page = await openPage(adminContext, '/admin/balance-monitoring');
    await page.getByTestId('balance-health').waitFor({ timeout: 15_000 });
    await page.getByTestId('balance-check').click();
    await toast(page, '检查完成', 15_000);
    expect(await page.getByTestId('balance-health').textContent()).toContain('余额与账本一致');
    await shot(page, 'admin-balance-monitoring-1440');
    await page.close();
  });

  it('every screen fits a 390 px phone', async () => {
    for (const [route, name] of [
      ['/admin/instance-management', 'admin-instance-management'],
      ['/admin/user-management', 'admin-user-management'],
      ['/admin/balance-monitoring', 'admin-balance-monitoring'],
      ['/admin/audit-logs', 'admin-audit-logs'],
    ] as const) {
      const page = await openPage(adminContext, route, MOBILE);
      await page.locator('.ant-card').first().waitFor({ timeout: 15_000 });
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, route).toBeLessThanOrEqual(0);
      await shot(page, `${name}-390`);
      await page.close();
    }

    // The audit log's table scrolls sideways under a fixed time column, like the other ops
    // tables; the administrator beside it is in view whole, and a tap on a row opens its details.
    const page = await openPage(adminContext, '/admin/audit-logs', MOBILE);
    await page.getByTestId('audit-target-filter').locator('input').fill(`instance:${created.id}`);
    await page.getByTestId('audit-target-filter').locator('input').press('Enter');
    const row = page.getByTestId('audit-row').filter({ hasText: '强制停止实例' }).first();
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('audit-row').count()).toBe(1);
    const layout = () =>
      row.evaluate((tr) => {
        const box = tr.closest('.ant-table-content')?.getBoundingClientRect();
        const [time, admin] = [...tr.querySelectorAll('td')].map((td) => td.getBoundingClientRect());
        const link = tr.querySelector('[data-testid="audit-detail-open"]')?.getBoundingClientRect();
        return { box, time, admin, link };
      });
    const start = await layout();
    if (!start.box || !start.time || !start.admin || !start.link) throw new Error('no audit table cells');
    expect(start.box.right).toBeLessThanOrEqual(390);
    expect(start.time.left).toBeGreaterThanOrEqual(start.box.left - 1);
    expect(start.admin.left).toBeGreaterThanOrEqual(start.time.right - 1);
    expect(start.admin.right).toBeLessThanOrEqual(start.box.right + 1);
    expect(await row.locator('td').nth(1).textContent()).toBe('admin');
    // The details link is off to the right until the table is scrolled; the time stays put.
    expect(start.link.left).toBeGreaterThan(start.box.right);
    await row.evaluate((tr) => {
      const scroller = tr.closest('.ant-table-content') as HTMLElement;
      scroller.scrollLeft = scroller.scrollWidth;
    });
    const end = await layout();
    if (!end.box || !end.time || !end.link) throw new Error('no audit table cells');
    expect(end.time.left).toBeCloseTo(start.time.left, 0);
    expect(end.link.right).toBeLessThanOrEqual(end.box.right + 1);
    expect(end.link.left).toBeGreaterThanOrEqual(end.time.right - 1);
    await shot(page, 'admin-audit-logs-scrolled-390');
    await row.locator('td').first().click();
    const drawer = page.locator('.ant-drawer');
    expect(await drawer.getByTestId('audit-detail-json').textContent()).toContain(REASON);
    await page.close();
  });
});
