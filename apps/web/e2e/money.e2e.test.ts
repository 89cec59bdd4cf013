import type { Bill, BillingMonitorInfo, Instance, Page as ListPage } from '@gpu/shared';
import { formatMoney } from '@gpu/shared/money';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  answerConfirm,
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// Money where decisions are made (issue 28): the instance list's header shows the spend rate and
// how long the balance lasts at it, like 控制台首页, and follows instances powering off; amounts
// read ¥1,000.00 on console and admin screens alike; orders and bills carry OD…/BL… numbers.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

/** An instance on the market's first host with a free GPU that no other file rents from. */
async function rent(session: Session, billing: 'hourly' | 'daily'): Promise<Instance> {
  return rentInstance(session.accessToken, {
    name: billing === 'hourly' ? 'runway-box' : 'numbered-box',
    billingType: billing,
    pick: (i) => !i.hostName.includes('l40s'),
  });
}

async function release(session: Session, id: number) {
  await userCall(session.accessToken, `/gpu/instance/release?instance_uuid=${id}`, {}).catch(() => undefined);
}

const monitor = (session: Session) =>
  api<BillingMonitorInfo>('/v2/billing/monitor/info', { token: session.accessToken });

/** The instance's power-off button, on the table row (desktop) or the card (phone). */
const powerOffButton = (page: Page, id: number, desktop: boolean) =>
  page
    .getByTestId(desktop ? `instance-row-${id}` : `instance-card-${id}`)
    .getByRole('button', { name: '关机' });

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['390 px', MOBILE],
] as const) {
  const tag = size === 'desktop' ? 'desktop' : 'mobile';
  const desktop = viewport === DESKTOP;

  describe(`实例列表 spend rate and runway (${size})`, () => {
    let session: Session;
    let inst: Instance;
    beforeAll(async () => {
      session = await registerUser();
      await fundUser(session.accessToken, 1000);
      inst = await rent(session, 'hourly');
    });
    afterAll(() => release(session, inst.id));

    it('shows the rate and the hours the balance lasts, and clears them when the instance powers off', async () => {
      expect(inst.status).toBe('RUNNING');
      const m = await monitor(session);
      expect(m.hourlyBurn).toBeGreaterThan(0);
      expect(m.estimatedHoursLeft).not.toBeNull();

      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const page = await visit(context, '/console/instance');
      const rate = page.getByTestId('spend-rate');
      await rate.waitFor();
      // The same figures as 控制台首页's card, through the same formatter.
      expect(await rate.textContent()).toBe(`按量消耗 ${formatMoney(m.hourlyBurn)}/时`);
      expect(await page.getByTestId('spend-hours-left').textContent()).toBe(
        `余额预计可用约 ${m.estimatedHoursLeft} 小时`,
      );
      // In the header, under the title, inside the screen.
      const title = await page.locator('h1').first().boundingBox();
      const runway = await page.getByTestId('spend-runway').boundingBox();
      if (!title || !runway) throw new Error('header has no box');
      expect(runway.y).toBeGreaterThanOrEqual(title.y + title.height - 1);
      expect(runway.x + runway.width).toBeLessThanOrEqual(viewport.width);
      await expectNoSidewaysScroll(page);
      await shot(page, `instances-runway-${tag}`);

      const home = await visit(context, '/console/homepage');
      const burn = home.getByTestId('overview-burn');
      await burn.waitFor();
      expect(await burn.textContent()).toBe(`${formatMoney(m.hourlyBurn)}/时`);
      expect(await home.getByText(`余额预计可用约 ${m.estimatedHoursLeft} 小时`).count()).toBe(1);
      await home.close();

      // Powering off stops the spend: the header follows without a reload.
      await powerOffButton(page, inst.id, desktop).click();
      await answerConfirm(page, '关机');
      await page.getByTestId('spend-hours-left').filter({ hasText: '当前没有按量计费的实例在运行' }).waitFor({
        timeout: 20_000,
      });
      expect(await page.getByTestId('spend-rate').textContent()).toBe(`按量消耗 ${formatMoney(0)}/时`);
      await context.close();
    });
  });
}

/** ¥, thousands separators, two decimals: the one money format. */
const MONEY = /^-?¥\d{1,3}(,\d{3})*\.\d{2}$/;

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['390 px', MOBILE],
] as const) {
  const tag = size === 'desktop' ? 'desktop' : 'mobile';

  describe(`one money format, console and admin (${size})`, () => {
    it('shows ¥1,234.00 on the overview, the recharge page and the back office, ¥1,000.00 on a preset', async () => {
      const session = await registerUser();
      await fundUser(session.accessToken, 1234);
      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const home = await visit(context, '/console/homepage');
      await home.getByTestId('overview-balance').filter({ hasText: '¥1,234.00' }).waitFor();
      expect(await home.getByTestId('overview-balance').textContent()).toBe('¥1,234.00');
      await expectNoSidewaysScroll(home);
      const recharge = await visit(context, '/recharge');
      await recharge.getByTestId('recharge-balance').filter({ hasText: '1,234.00' }).waitFor();
      expect(await recharge.getByTestId('recharge-balance').textContent()).toBe('¥1,234.00');
      const preset = recharge.getByTestId('recharge-preset-10000');
      expect(await preset.textContent()).toContain('¥10,000.00');
      expect(await recharge.getByTestId('recharge-preset-1000').textContent()).toContain('¥1,000.00');
      // The widest preset's figure stays inside its tile.
      const tile = await preset.boundingBox();
      const figure = await preset.locator('span').first().boundingBox();
      if (!tile || !figure) throw new Error('preset has no box');
      expect(figure.x + figure.width).toBeLessThanOrEqual(tile.x + tile.width);
      await expectNoSidewaysScroll(recharge);
      await shot(recharge, `money-recharge-${tag}`);
      await context.close();

      const admin = await adminLogin();
      const adminContext = await openContext(browser, viewport, {
        adminToken: admin.token,
        admin: admin.admin,
      });
      const users = await visit(adminContext, '/admin/user-management');
      await users.getByTestId('user-search').locator('input').fill(session.user.phone);
      await users.getByTestId('user-search').locator('input').press('Enter');
      const row = users.getByTestId(`user-row-${session.user.id}`);
      await row.waitFor();
      expect(await row.textContent()).toContain('¥1,234.00');
      // Every money figure above the table: ¥ and grouping, no "元" suffix.
      for (const key of ['balance', 'spend']) {
        const value = users.getByTestId(`stat-${key}-value`);
        await value.waitFor();
        expect((await value.textContent())?.trim()).toMatch(MONEY);
        const box = await value.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      await shot(users, `money-admin-users-${tag}`);
      const dashboard = await visit(adminContext, '/admin/dashboard');
      const figures = dashboard.getByTestId('admin-figures').locator('[data-stat-value]');
      await figures.first().waitFor();
      await dashboard.waitForFunction(
        () => document.querySelectorAll('[data-testid="admin-figures"] [data-stat-value]').length === 6,
      );
      const texts = (await figures.allTextContents()).map((x) => x.trim());
      expect(texts.filter((x) => MONEY.test(x))).toHaveLength(3);
      expect(texts.join(' ')).not.toContain('元');
      await adminContext.close();
    });
  });

  describe(`order and bill numbers (${size})`, () => {
    let session: Session;
    let inst: Instance;
    beforeAll(async () => {
      session = await registerUser();
      await fundUser(session.accessToken, 2000);
      inst = await rent(session, 'daily');
    });
    afterAll(() => release(session, inst.id));

    it('/console/orders and /console/bills show each OD… number whole, and find one by it', async () => {
      const { list } = await userCall<ListPage<Bill>>(
        session.accessToken,
        '/v2/billing/records?page=1&size=10',
      );
      const order = list.find((b) => b.instanceId === inst.id && b.kind === 'create');
      if (!order) throw new Error('no create order');
      expect(order.recordNo).toMatch(/^OD\d{14}[0-9A-F]{12}$/);
      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      for (const route of ['/console/orders', '/console/bills']) {
        const page = await visit(context, route);
        const row = page.getByTestId(`bill-row-${order.id}`);
        await row.waitFor();
        const no = row.getByTestId('bill-no');
        expect(await no.textContent()).toBe(order.recordNo);
        // On one line (a number is read back digit by digit), inside the screen.
        const box = await no.boundingBox();
        if (!box) throw new Error('number has no box');
        expect(box.height).toBeLessThan(26);
        if (viewport === MOBILE) expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        await expectNoSidewaysScroll(page);
        await shot(page, `money-numbers${route.replaceAll('/', '-')}-${tag}`);
        // Typed in lower case with spaces: that order alone.
        const search = page.getByTestId('bill-search').locator('input');
        await search.fill(` ${order.recordNo.toLowerCase()} `);
        await search.press('Enter');
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid^="bill-row-"]').length === 1,
        );
        expect(await row.isVisible()).toBe(true);
        await page.close();
      }
      await context.close();
    });
  });
}
