import path from 'node:path';
import type { Instance, User } from '@gpu/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  api,
  DESKTOP,
  dialogsSettled,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
} from './helpers';
import { openContext, shot, visit } from './screen-helpers';

// Issue 28, phones: the console's drawer and bottom tab bar instead of the icon rail, 44 px copy
// buttons, 打开支付宝支付 before the QR, the balance behind the payment success dialog, and the
// account drawer's loading state. Each at 390 px, with 1440 px unchanged.

// Not the L40S host: the create-feedback and instance-details files need its GPUs, and a release
// gives them back only once its job has run.
const HOST = 'ah-a-4090-01';

/** Every console page and the two pages the tabs lead out to, with the tab lit on each. */
const PAGES: [route: string, tab: string | null][] = [
  ['/console/homepage', 'instance'],
  ['/console/instance', 'instance'],
  ['/console/orders', 'fees'],
  ['/console/bills', 'fees'],
  ['/console/recharge-orders', 'fees'],
  ['/console/vouchers', 'fees'],
  ['/console/account-security', 'mine'],
  ['/recharge', 'recharge'],
  ['/user', 'mine'],
];

let browser: Browser;
let session: { accessToken: string; user: User };
let inst: Instance;

beforeAll(async () => {
  browser = await launchBrowser();
  // A customer with money, an order, a bill and a running instance: pages with rows in them.
  session = await registerUser();
  await fundUser(session.accessToken, 1000);
  inst = await rentInstance(session.accessToken, { name: 'phone-console', host: HOST });
});
afterAll(async () => {
  // Give the GPU back: the files after this one count the host's free GPUs.
  if (inst)
    await api(`/gpu/instance/release?instance_uuid=${inst.id}`, { token: session.accessToken, body: {} });
  await browser?.close();
});

const signedIn = (viewport: { width: number; height: number }, who = session) =>
  openContext(browser, viewport, { token: who.accessToken, user: who.user });

/** The page scrolls sideways by this many px (0 when it does not). */
const sideways = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
}

describe('console layout at 390 px', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await signedIn(MOBILE);
  });
  afterAll(() => context?.close());

  for (const [route, tab] of PAGES) {
    it(`${route}: no rail, no sideways scroll, the tab bar at the bottom with ${tab} lit`, async () => {
      const page = await visit(context, route);
      const bar = page.getByTestId('console-tab-bar');
      await bar.waitFor();
      if (route.startsWith('/console')) {
        await page.locator('.ant-layout-content').first().waitFor();
        expect(await page.locator('.ant-layout-sider').isVisible()).toBe(false);
        // The page has the whole width (the rail left it about 150 px).
        expect((await box(page.locator('.ant-layout-content').first())).width).toBe(MOBILE.width);
      }
      await page.waitForTimeout(300); // late rows and tables
      expect(await sideways(page)).toBeLessThanOrEqual(0);

      const barBox = await box(bar);
      expect(Math.round(barBox.y + barBox.height)).toBe(MOBILE.height);
      expect(barBox.width).toBe(MOBILE.width);
      const labels = await bar.locator('a').allTextContents();
      expect(labels).toEqual(['实例', '费用', '充值', '我的']);
      for (const id of ['instance', 'fees', 'recharge', 'mine']) {
        const tabBox = await box(page.getByTestId(`console-tab-${id}`));
        expect(tabBox.height).toBeGreaterThanOrEqual(44);
        expect(tabBox.width).toBeGreaterThanOrEqual(44);
        const current = await page.getByTestId(`console-tab-${id}`).getAttribute('aria-current');
        expect(current, `${id} on ${route}`).toBe(id === tab ? 'page' : null);
      }

      // Scrolled to the end, the page's last line sits above the bar, not under it.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForTimeout(200);
      const end = await page.evaluate(() => {
        const root = document.querySelector('.ant-layout-content') ?? document.querySelector('footer');
        const last = root?.lastElementChild ?? root;
        return last?.getBoundingClientRect().bottom ?? 0;
      });
      expect(end).toBeLessThanOrEqual((await box(bar)).y + 1);
      await shot(page, `console-phone${route.replaceAll('/', '-')}`);
      await page.close();
    });
  }

  it('the ☰ opens a drawer that lists the console pages by name, and a tab leads on', async () => {
    const page = await visit(context, '/console/instance');
    await page.getByTestId('nav-hamburger').click();
    const drawer = page.locator('.ant-drawer-content-wrapper').filter({ hasText: '账号安全' });
    await drawer.waitFor();
    const text = (await drawer.textContent()) ?? '';
    for (const label of ['首页', '容器实例', '我的订单', '充值订单', '账号安全', '轻量算力']) {
      expect(text).toContain(label);
    }
    const item = drawer.locator('.ant-menu-item', { hasText: '我的订单' });
    expect((await box(item)).height).toBeGreaterThanOrEqual(44);
    expect((await box(drawer)).width).toBeLessThan(MOBILE.width);
    await page.waitForTimeout(400); // the slide-in
    await shot(page, 'console-phone-drawer', false);
    await item.click();
    await page.waitForURL('**/console/orders');
    await drawer.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('console-tab-fees').getAttribute('aria-current')).toBe('page');

    await page.getByTestId('console-tab-recharge').click();
    await page.waitForURL('**/recharge');
    await page.getByTestId('recharge-balance').waitFor();
    expect(await page.getByTestId('console-tab-recharge').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('console-tab-mine').click();
    await page.waitForURL('**/user');
    await page.getByTestId('console-tab-instance').click();
    await page.waitForURL('**/console/instance');
    await page.close();
  });
});

describe('console layout at 1440 px', () => {
  it('keeps the sider and the top navigation; no tab bar, no ☰', async () => {
    const context = await signedIn(DESKTOP);
    const page = await visit(context, '/console/instance');
    const sider = page.locator('.ant-layout-sider');
    await sider.waitFor();
    expect((await box(sider)).width).toBe(220);
    expect(await sider.textContent()).toContain('容器实例');
    expect(await page.getByTestId('console-tab-bar').isVisible()).toBe(false);
    expect(await page.getByTestId('nav-hamburger').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: '轻量算力' }).first().isVisible()).toBe(true);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    const recharge = await visit(context, '/recharge');
    await recharge.getByTestId('recharge-balance').waitFor();
    expect(await recharge.getByTestId('console-tab-bar').isVisible()).toBe(false);
    await shot(page, 'console-desktop-instance');
    await context.close();
  });
});

/** The visible copy buttons' boxes (antd Typography's copyable: SSH command, password, ...). */
async function copyBoxes(scope: Locator) {
  const buttons = scope.locator('button.ant-typography-copy');
  await buttons.first().waitFor();
  const boxes = [];
  for (const button of await buttons.all()) if (await button.isVisible()) boxes.push(await box(button));
  expect(boxes.length).toBeGreaterThan(0);
  return boxes;
}

describe('copy buttons', () => {
  it('are at least 44×44 px at 390 px, in the list and in the 连接 drawer', async () => {
    const context = await signedIn(MOBILE);
    const page = await visit(context, '/console/instance');
    const card = page.getByTestId(`instance-card-${inst.id}`);
    await card.getByTestId('ssh-command').waitFor();
    for (const b of await copyBoxes(card)) {
      expect(b.width).toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // The access lines mid-screen (a full-page shot puts the fixed tab bar over them).
    await card.getByTestId('ssh-command').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-phone-copy.png') });
    await card.getByTestId('connect-open').click();
    const drawer = page.locator('.ant-drawer', { hasText: '连接实例' });
    await drawer.waitFor();
    await dialogsSettled(page); // measured mid-slide, a box reads 43.99997 px
    for (const b of await copyBoxes(drawer)) {
      expect(b.width).toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    await page.waitForTimeout(400); // the slide-in
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-phone-copy-drawer.png') });
    await context.close();
  });

  it("the blockchain address's copy button is 44 px tall at 390 px, 32 px at 1440 px", async () => {
    for (const [viewport, tall] of [
      [MOBILE, true],
      [DESKTOP, false],
    ] as const) {
      const context = await signedIn(viewport);
      const page = await visit(context, '/blockchain');
      const b = await box(page.getByTestId('receive-copy'));
      if (tall) expect(b.height).toBeGreaterThanOrEqual(44);
      else expect(b.height).toBe(32);
      expect(b.width).toBeGreaterThanOrEqual(44);
      await context.close();
    }
  });

  it('stay a small icon at 1440 px', async () => {
    const context = await signedIn(DESKTOP);
    const page = await visit(context, '/console/instance');
    const row = page.getByTestId(`instance-row-${inst.id}`);
    await row.getByTestId('ssh-command').waitFor();
    for (const b of await copyBoxes(row)) {
      expect(b.width).toBeLessThan(30);
      expect(b.height).toBeLessThan(30);
    }
    await context.close();
  });
});
