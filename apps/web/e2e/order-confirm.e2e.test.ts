import path from 'node:path';
import type { Envelope, Instance, MarketItem, MarketList } from '@gpu/shared';
import { formatMoney, hoursLeft, unitsToYuan, yuanToUnits } from '@gpu/shared/money';
import { computeOrderPrice } from '@gpu/shared/pricing';
import { formatTime } from '@gpu/shared/time';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  answerConfirm,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  settledInstance,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// Issue "What customers see": a package takes its money only after a confirm that shows amount,
// duration, expiry (Beijing time) and the rule at expiry; the order bar shows the spend rate and
// how long the balance lasts at it (the console's rule); money reads ¥1,000.00.

const L40S_HOST = 'nm-a-l40s-01';
const FUNDS = 1200;
let browser: Browser;
let l40s: MarketItem;

beforeAll(async () => {
  browser = await launchBrowser();
  const probe = await registerUser();
  const market = await userCall<MarketList>(probe.accessToken, '/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === L40S_HOST);
  if (!item) throw new Error(`${L40S_HOST} is not in the market`);
  l40s = item;
});
afterAll(() => browser?.close());

const radio = (page: Page, group: string, name: string) =>
  page.getByTestId(group).getByRole('radio', { name, exact: true });
const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent()) ?? '';
const verified = (page: Page) =>
  page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor({ state: 'attached' });

async function pickPytorch(page: Page) {
  await page.getByTestId('image-trigger').click();
  await radio(page, 'image-framework', 'PyTorch').click();
  await radio(page, 'image-version', '2.5.1').click();
  await radio(page, 'image-python', 'Python 3.12').click();
  await radio(page, 'image-accelerator', 'CUDA 12.4').click();
  await page.waitForSelector('[data-testid="image-confirm"]:not([disabled])');
  await page.getByTestId('image-confirm').click();
  await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
}

/** The runway line sits inside the bar, on the screen, and the bar keeps its create button in view. */
async function expectRunwayInBar(page: Page, viewport: { width: number; height: number }) {
  const bar = await page.getByTestId('order-bar').boundingBox();
  const runway = await page.getByTestId('bar-runway').boundingBox();
  const button = await page.getByTestId('create-button').boundingBox();
  if (!bar || !runway || !button) throw new Error('order bar parts missing');
  expect(runway.x).toBeGreaterThanOrEqual(bar.x);
  expect(runway.x + runway.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  expect(runway.y).toBeGreaterThanOrEqual(bar.y);
  expect(runway.y + runway.height).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
  expect(button.y + button.height).toBeLessThanOrEqual(viewport.height);
  expect(button.x + button.width).toBeLessThanOrEqual(viewport.width);
  // The runway does not sit under the create button.
  const overlap =
    runway.x < button.x + button.width &&
    button.x < runway.x + runway.width &&
    runway.y < button.y + button.height &&
    button.y < runway.y + runway.height;
  expect(overlap).toBe(false);
  await expectNoSidewaysScroll(page);
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const) {
  describe(`order bar and package confirm (${size})`, () => {
    it('pay-as-you-go: the bar shows ¥/小时 and balance ÷ rate, money as ¥1,200.00', async () => {
      const session = await registerUser();
      await fundUser(session.accessToken, FUNDS);
      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const page = await visit(context, `/subscribe?skuGpuId=${l40s.skuGpuId}&billingType=hourly`);
      await page.getByTestId('host-card').waitFor();
      await verified(page);
      await page.getByTestId('bar-hours-left').waitFor();

      const expected = computeOrderPrice({
        hourlyPrice: yuanToUnits(l40s.price || l40s.originalPrice),
        billingType: 'hourly',
        duration: 1,
        gpuAmount: 1,
        discountRateBp: l40s.hasDiscount ? Math.round(l40s.discountRate * 10_000) : null,
      });
      const rate = unitsToYuan(expected.payableAmount);
      expect(await text(page, 'bar-balance')).toContain('可用余额 ¥1,200.00');
      expect(await text(page, 'bar-rate')).toBe(`消耗 ${formatMoney(rate)}/小时`);
      const hours = hoursLeft(FUNDS, rate);
      expect(hours).toBe(Math.floor((FUNDS / rate) * 10) / 10);
      expect(await text(page, 'bar-hours-left')).toBe(` · 余额预计可用约 ${hours} 小时`);
      await expectRunwayInBar(page, viewport);
      // The quote's state speaks to customers, not of servers.
      expect(await text(page, 'quote-state')).toContain('价格已确认');
      expect(await page.locator('body').textContent()).not.toMatch(/服务端|核价/);
      // No confirm for pay-as-you-go: the existing flow (create at once) is untouched.
      expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
      await shot(page, `order-bar-hourly-${size}`, false);
      await context.close();
    });

    it('a daily package: rate over its hours, then create asks with amount, duration, expiry and rule', async () => {
      const session = await registerUser();
      await fundUser(session.accessToken, FUNDS);
      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const page = await visit(context, `/subscribe?skuGpuId=${l40s.skuGpuId}&billingType=daily`);
      await page.getByTestId('host-card').waitFor();
      await radio(page, 'duration', '2天').click();
      await verified(page);
      const payable = Number((await text(page, 'bar-payable')).replace(/[^\d.]/g, ''));
      const rate = payable / 48;
      expect(await text(page, 'bar-rate')).toBe(`折合 ${formatMoney(rate)}/小时`);
      expect(await text(page, 'bar-hours-left')).toBe(` · 余额预计可用约 ${hoursLeft(FUNDS, rate)} 小时`);
      expect(await text(page, 'bar-payable')).toBe(formatMoney(payable));
      await expectRunwayInBar(page, viewport);

      await pickPytorch(page);
      let creates = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/gpu/instance/create')) creates++;
      });

      // Cancel: nothing is bought.
      await page.getByTestId('create-button').click();
      const dialog = page.locator('.ant-modal-confirm');
      await dialog.waitFor();
      await answerConfirm(page, '再想想');
      expect(creates).toBe(0);

      const before = Date.now();
      await page.getByTestId('create-button').click();
      await dialog.getByTestId('package-confirm').waitFor();
      const after = Date.now();
      expect(await dialog.locator('.ant-modal-confirm-title').textContent()).toBe('确认购买包日套餐');
      expect(await text(page, 'confirm-amount')).toBe(formatMoney(payable));
      expect(await text(page, 'confirm-duration')).toBe('2天（共 48 小时）');
      expect(await text(page, 'confirm-gpus')).toBe('L40S × 1');
      const shownExpiry = await text(page, 'confirm-expiry');
      const ends = [before, after].map(
        (t) => `${formatTime(new Date(t + 48 * 3_600_000), 'YYYY-MM-DD HH:mm')}（北京时间）`,
      );
      expect(ends).toContain(shownExpiry);
      expect(await text(page, 'confirm-rule')).toContain(
        '到期时系统自动关机，不会自动续费，也不会转为按量计费',
      );
      // The dialog fits the screen.
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(ARTIFACTS, `order-confirm-${size}.png`) });
      expect(creates).toBe(0);

      const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
      await answerConfirm(page, '确认支付并创建');
      const body = (await (await created).json()) as Envelope<Instance>;
      expect(body.success, body.message).toBe(true);
      await page.waitForURL((url) => url.pathname.startsWith('/console'));
      const inst = await settledInstance<Instance>(session.accessToken, body.data.id);
      // The server's expiry is what the confirm said (to the minute, give or take the click).
      const serverEnd = new Date(inst.expiresAt as string).getTime();
      expect(Math.abs(serverEnd - (before + 48 * 3_600_000))).toBeLessThan(120_000);
      const left = await userCall<{ available: number }>(session.accessToken, '/user/balance');
      expect(yuanToUnits(left.available)).toBe(yuanToUnits(FUNDS) - yuanToUnits(payable));
      await context.close();
    });
  });
}
