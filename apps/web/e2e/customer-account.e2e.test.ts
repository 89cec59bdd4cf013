import type { Balance, BillingMonitorInfo, VoucherStats } from '@gpu/shared';
import { formatMoney } from '@gpu/shared/money';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  port,
  registerUser,
  tenantConfig,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// What customers see of their own account: /user with their own figures, one password rule on
// every form, and the recharge subject a real Alipay bill would show.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
const money = (yuan: number) => formatMoney(yuan);
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;
const NEW_RULE = '6-100位，须包含大写字母、小写字母和数字';
const RESET_RULE = '6-16位，须包含大写字母、小写字母和数字';

async function figure(page: Page, testId: string) {
  const value = page.getByTestId(`${testId}-value`);
  await value.waitFor();
  return (await value.textContent())?.trim();
}

/** /user for `session`: every figure is the one the customer's own endpoints answer. */
async function expectOwnFigures(page: Page, session: Session, funded: number) {
  const [balance, spend, vouchers] = await Promise.all([
    api<Balance>('/user/balance', { token: session.accessToken }),
    api<BillingMonitorInfo>('/v2/billing/monitor/info', { token: session.accessToken }),
    api<VoucherStats>('/user/vouchers/stats', { token: session.accessToken }),
  ]);
  expect(balance.available).toBe(funded);
  expect(await figure(page, 'user-balance')).toBe(money(funded));
  expect(await page.getByTestId('user-balance').textContent()).toContain(`冻结 ${money(balance.frozen)}`);
  expect(await figure(page, 'user-month-spend')).toBe(money(spend.monthSpend));
  expect(await figure(page, 'user-vouchers')).toBe(`${vouchers.unused} 张`);
  expect(await figure(page, 'user-level')).toBe('普通会员');
  expect(await page.getByTestId('user-level-tag').textContent()).toContain('普通会员');
  expect(await page.getByTestId('user-phone').textContent()).toBe(masked(session.user.phone));
  const text = (await page.locator('body').textContent()) ?? '';
  for (const invented of ['1,288.50', '1288.5', '黄金会员', '2,680', '示例数据'])
    expect(text).not.toContain(invented);
  // The page (the header is the shell's) never shows the phone in full, username included.
  expect(await page.getByTestId('user-page').textContent()).not.toContain(session.user.phone);
  expect(await page.getByTestId('user-name').textContent()).toBe(masked(session.user.phone));
  // The ways on: account security, recharge and orders.
  for (const [id, href] of [
    ['account-security', '/console/account-security'],
    ['recharge', '/recharge'],
    ['orders', '/console/orders'],
    ['recharge-orders', '/console/recharge-orders'],
  ]) {
    expect(await page.getByTestId(`user-link-${id}`).getAttribute('href')).toBe(href);
  }
}

const statBoxes = (page: Page) =>
  Promise.all(
    ['user-balance', 'user-level', 'user-month-spend', 'user-vouchers'].map(async (id) => {
      const box = await page.getByTestId(id).boundingBox();
      if (!box) throw new Error(`${id} has no box`);
      return box;
    }),
  );

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['390 px', MOBILE],
] as const) {
  const tag = size === 'desktop' ? 'desktop' : 'mobile';

  describe(`个人中心 /user (${size})`, () => {
    it('shows each customer their own balance, spend, vouchers and masked phone, never sample figures', async () => {
      const a = await registerUser();
      const b = await registerUser();
      await fundUser(a.accessToken, 1000);
      await fundUser(a.accessToken, 234);
      await fundUser(b.accessToken, 300);

      const contextA = await openContext(browser, viewport, { token: a.accessToken, user: a.user });
      const pageA = await visit(contextA, '/user');
      expect(await pageA.title()).toMatch(/^个人中心 - /);
      await expectOwnFigures(pageA, a, 1234);
      expect(await figure(pageA, 'user-balance')).toBe('¥1,234.00');
      await expectNoSidewaysScroll(pageA);
      const boxes = await statBoxes(pageA);
      const [first, second, third, fourth] = boxes as [DOMRect, DOMRect, DOMRect, DOMRect];
      if (viewport === DESKTOP) {
        // Four figures in one row.
        for (const box of boxes) expect(Math.abs(box.y - first.y)).toBeLessThan(2);
      } else {
        // Two by two, inside the screen.
        expect(Math.abs(second.y - first.y)).toBeLessThan(2);
        expect(third.y).toBeGreaterThan(first.y + first.height - 1);
        expect(Math.abs(fourth.y - third.y)).toBeLessThan(2);
        for (const box of boxes) expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      await shot(pageA, `user-center-${tag}`);

      const contextB = await openContext(browser, viewport, { token: b.accessToken, user: b.user });
      const pageB = await visit(contextB, '/user');
      await expectOwnFigures(pageB, b, 300);
      expect(await pageB.locator('body').textContent()).not.toContain('1,234.00');
      await contextA.close();
      await contextB.close();
    });

    it('shows a loading state, not ¥0.00, while the balance is on its way', async () => {
      const a = await registerUser();
      await fundUser(a.accessToken, 500);
      const context = await openContext(browser, viewport, { token: a.accessToken, user: a.user });
      const page = await context.newPage();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/user/balance', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`http://localhost:${port()}/user`);
      const card = page.getByTestId('user-balance');
      await card.and(page.locator('[data-state="loading"]')).waitFor();
      expect(await card.locator('.ant-skeleton').count()).toBe(1);
      expect(await card.textContent()).not.toContain('¥');
      await shot(page, `user-center-loading-${tag}`, false);
      release();
      await card.and(page.locator('[data-state="ready"]')).waitFor();
      expect(await figure(page, 'user-balance')).toBe('¥500.00');
      await context.close();
    });
  });

  describe(`password rule (${size})`, () => {
    it('states the same rule on register, reset password and change password, and the meter agrees', async () => {
      const guest = await openContext(browser, viewport);
      const register = await visit(guest, '/register');
      const registerHint = await register.getByTestId('password-input').getAttribute('placeholder');
      await register.getByTestId('password-input').fill('abc');
      const registerMeter = await register.getByTestId('password-strength').textContent();
      expect(registerMeter).toContain('还需包含：至少6个字符、数字、大写字母');
      await register.getByTestId('password-input').fill('Abc123');
      await register.getByTestId('password-strength').filter({ hasNotText: '还需包含' }).waitFor();
      await register.getByTestId('password-input').fill('abcdef');
      await register.getByTestId('password-input').blur();
      await register.getByText('密码必须包含大写字母、小写字母和数字').waitFor();
      await shot(register, `password-rule-register-${tag}`);

      const reset = await visit(guest, '/forgot-password');
      const resetInput = reset.getByTestId('password-input');
      const resetHint = await resetInput.getAttribute('placeholder');
      await resetInput.fill('Abcdefgh12345678X');
      await resetInput.blur();
      await reset.getByText('新密码长度为6-16位').waitFor();
      await shot(reset, `password-rule-reset-${tag}`);

      const session = await registerUser();
      const signedIn = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const security = await visit(signedIn, '/console/account-security');
      const changeHint = await security.getByTestId('new-password').getAttribute('placeholder');
      await security.getByTestId('new-password').fill('abc');
      const changeMeter = await security.getByTestId('password-strength').textContent();
      await security.getByTestId('new-password').blur();
      await security.getByText('密码长度为6-100位').waitFor();
      await shot(security, `password-rule-change-${tag}`);

      expect(registerHint).toBe(NEW_RULE);
      expect(changeHint).toBe(registerHint);
      expect(resetHint).toBe(RESET_RULE);
      // The same words; only the maximum differs (SPEC.md §5: 6–100, reset 6–16).
      expect(resetHint?.replace('16', '100')).toBe(registerHint);
      expect(changeMeter).toBe(registerMeter);
      for (const page of [register, reset, security]) {
        expect(await page.locator('body').textContent()).not.toContain('至少8');
        await expectNoSidewaysScroll(page);
      }
      await guest.close();
      await signedIn.close();
    });
  });

  describe(`recharge subject (${size})`, () => {
    it('the payment page names the tenant and the amount: "{租户名} 账户充值 ¥1,000.00"', async () => {
      const session = await registerUser();
      const { tenantName } = await tenantConfig('localhost');
      const { qrCode } = await userCall<{ qrCode: string }>(session.accessToken, '/pay/createQrCode', {
        amount: 1000,
        subject: '测试商品',
        type: 'alipay',
      });
      const context = await openContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(`http://localhost:${port()}${new URL(qrCode).pathname}`);
      const text = (await page.locator('body').textContent()) ?? '';
      expect(text).toContain(`${tenantName} 账户充值 ¥1,000.00`);
      expect(text).not.toContain('测试商品');
      await shot(page, `recharge-subject-${tag}`);
      await context.close();
    });
  });
}
