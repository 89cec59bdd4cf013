import path from 'node:path';
import type { Envelope, Instance, MarketItem, MarketList, User } from '@gpu/shared';
import { instanceMessages } from '@gpu/shared/instances';
import { unitsToYuan, yuanToUnits } from '@gpu/shared/money';
import { computeOrderPrice } from '@gpu/shared/pricing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  answerConfirm,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  seedSession,
  settledInstance,
  siteUrl,
  userCall,
} from './helpers';

const L40S_HOST = 'nm-a-l40s-01';

let browser: Browser;
let session: { accessToken: string; user: User };
let l40s: MarketItem;

/** The real API as the logged-in user. */
const userApi = <T>(urlPath: string, body?: unknown) => userCall<T>(session.accessToken, urlPath, body);
const fund = (amount: number) => fundUser(session.accessToken, amount);
const balance = async () => (await userApi<{ available: number }>('/user/balance')).available;

async function newContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await seedSession(context, { token: session.accessToken, user: session.user });
  return context;
}

async function openSubscribe(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', `/subscribe?${query}`));
  return page;
}

/** The amount a Price shows, e.g. "¥81.192" or "−¥0.00". */
const yuanShown = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).textContent())?.replace(/[^\d.]/g, ''));

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

/** The radio button of an option group (the tiles are native radios under their labels). */
const radio = (page: Page, group: string, name: string) =>
  page.getByTestId(group).getByRole('radio', { name, exact: true });

/** Framework → version → Python → CUDA (confirm is left to the caller). */
async function pickImage(
  page: Page,
  choice: { framework: string; version: string; python: string; accel: string },
) {
  await page.getByTestId('image-trigger').click();
  await radio(page, 'image-framework', choice.framework).click();
  await radio(page, 'image-version', choice.version).click();
  await radio(page, 'image-python', choice.python).click();
  await radio(page, 'image-accelerator', choice.accel).click();
}

const PYTORCH = { framework: 'PyTorch', version: '2.5.1', python: 'Python 3.12', accel: 'CUDA 12.4' };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  await fund(500);
  const market = await userApi<MarketList>('/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === L40S_HOST);
  if (!item) throw new Error(`${L40S_HOST} is not in the market`);
  l40s = item;
});
afterAll(() => browser?.close());

describe('subscribe (desktop)', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(DESKTOP);
  });
  afterAll(() => context?.close());

  it('shows the L40S host, the daily package and the figures of the shared pricing function', async () => {
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('host-card').waitFor();
    expect(await page.getByTestId('host-card-gpu').textContent()).toBe('L40S');
    expect(await page.getByTestId('host-card-host').textContent()).toBe(L40S_HOST);
    expect(await page.getByTestId('host-card-idle').textContent()).toBe(`${l40s.gpuIdleNum}/${l40s.gpuNum}`);
    expect(await page.getByTestId('billing-choice').locator('input:checked').getAttribute('value')).toBe(
      'daily',
    );

    // One GPU for one day: L40S has no package config, so SPEC §9's fallback (×0.85 × 24 h).
    const expected = computeOrderPrice({
      hourlyPrice: yuanToUnits(l40s.originalPrice),
      billingType: 'daily',
      duration: 1,
      gpuAmount: 1,
    });
    const payable = unitsToYuan(expected.payableAmount);
    await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor();
    expect(await yuanShown(page, 'bar-payable')).toBe(payable);
    expect(await yuanShown(page, 'bar-original')).toBe(unitsToYuan(expected.originalAmount));
    expect(await yuanShown(page, 'bar-discount')).toBe(0);

    // GPU count: 1..min(idle, 8).
    const counts = page.getByTestId('gpu-count').locator('input');
    expect(await counts.count()).toBe(8);
    expect(await page.getByTestId('gpu-count').locator('input:disabled').count()).toBe(
      8 - Math.min(l40s.gpuIdleNum, 8),
    );
    // Durations: daily 1–6.
    expect(await page.getByTestId('duration').locator('input').count()).toBe(6);

    // Create stays disabled until an image is chosen.
    expect(await page.getByTestId('create-button').isDisabled()).toBe(true);
    await shot(page, 'subscribe-desktop');
    // At the end of the form the bar rests under the last section.
    await page.getByTestId('section-name').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await shot(page, 'subscribe-desktop-bottom');
    await page.close();
  });

  it('keeps the billing choice in the URL', async () => {
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('host-card').waitFor();
    await page.getByTestId('billing-choice').locator('input[value="weekly"]').click();
    await page.waitForURL((url) => url.searchParams.get('billingType') === 'weekly');
    await expect.poll(() => page.getByTestId('duration').locator('input').count()).toBe(3);
    await page.getByTestId('billing-choice').locator('input[value="hourly"]').click();
    await page.waitForURL((url) => url.searchParams.get('billingType') === 'hourly');
    await expect.poll(() => page.getByTestId('duration').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('skuGpuId')).toBe(l40s.skuGpuId);
    await page.close();
  });

  it('filters the instance name live and explains what is wrong', async () => {
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    const name = page.getByTestId('instance-name');
    await name.waitFor();
    // The default: GPU name plus a timestamp, already valid.
    expect(await name.inputValue()).toMatch(/^L40S-\d{10}$/);

    await name.fill('');
    expect(await page.getByTestId('instance-name-message').textContent()).toBe(instanceMessages.nameRequired);
    // Blocked keys never reach the field; repeated and leading hyphens are dropped.
    await name.pressSequentially('-my_model 训练!--run.01');
    expect(await name.inputValue()).toBe('mymodel-run01');
    await name.fill('--a__b  c---d');
    expect(await name.inputValue()).toBe('abc-d');
    await name.press('End');
    await name.press('-');
    expect(await name.inputValue()).toBe('abc-d-');
    expect(await page.getByTestId('instance-name-message').textContent()).toBe(instanceMessages.nameInvalid);
    await name.fill('x'.repeat(60));
    expect(await name.inputValue()).toHaveLength(50);
    await page.close();
  });

  it('opens the voucher dialog with its filters and search (no vouchers yet)', async () => {
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('voucher-open').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    for (const label of ['全部', '未使用', '即将过期'])
      expect(await dialog.getByText(label, { exact: true }).count()).toBe(1);
    await dialog.getByPlaceholder('搜索代金券名称、GPU型号、地区').fill('L40S');
    await dialog.getByTestId('voucher-empty').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('can be driven from the keyboard: the cascader opens, walks and confirms without a mouse', async () => {
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('image-trigger').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('image-panel').waitFor();
    // Focus is in the first column; Space picks, Tab moves to the next level. Each key waits for
    // what it acts on: a Tab before the next column rendered leaves the panel (on a loaded runner
    // the focus reached the voucher button, and Space opened its dialog).
    const focusIn = (testId: string) =>
      page.waitForFunction(
        (id) => document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement) ?? false,
        testId,
      );
    const levels = ['framework', 'version', 'python', 'accelerator'];
    for (const [k, level] of levels.entries()) {
      await focusIn(`image-${level}`);
      await page.keyboard.press('Space');
      const next = levels[k + 1];
      if (next) await page.getByTestId(`image-${next}`).waitFor();
      else await page.waitForSelector('[data-testid="image-confirm"]:not([disabled])');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Tab'); // 取消 → 确定
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'image-confirm',
    );
    await page.keyboard.press('Enter');
    await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('image-selected').textContent()).toBe(
      'PyTorch 2.5.1 · Python 3.12 · CUDA 12.4',
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'image-trigger',
    );

    // Escape closes the panel and keeps the confirmed image.
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown'); // TensorFlow
    await page.keyboard.press('Escape');
    await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('image-selected').textContent()).toContain('PyTorch 2.5.1');

    // Billing radios: arrows move the choice (and the URL).
    await page.getByTestId('billing-choice').locator('input:checked').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('billingType') === 'weekly');
    await page.close();
  });

  it('creates a daily L40S instance: image through the cascader, toast, console, charged once', async () => {
    const before = await balance();
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('host-card').waitFor();
    await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor();
    const payable = await yuanShown(page, 'bar-payable');

    await pickImage(page, PYTORCH);
    // Choosing an earlier level resets the later ones.
    await radio(page, 'image-framework', 'TensorFlow').click();
    expect(await page.getByTestId('image-python').locator('input').count()).toBe(0);
    expect(await page.getByTestId('image-confirm').isDisabled()).toBe(true);
    await radio(page, 'image-framework', PYTORCH.framework).click();
    await radio(page, 'image-version', PYTORCH.version).click();
    await radio(page, 'image-python', PYTORCH.python).click();
    await radio(page, 'image-accelerator', PYTORCH.accel).click();
    await page.waitForFunction(() => {
      const confirm = document.querySelector<HTMLButtonElement>('[data-testid="image-confirm"]');
      return confirm !== null && !confirm.disabled;
    });
    await page.waitForTimeout(300); // the button's colour transition
    await shot(page, 'subscribe-desktop-image-panel');
    await page.getByTestId('image-confirm').click();
    await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('image-selected').textContent()).toBe(
      'PyTorch 2.5.1 · Python 3.12 · CUDA 12.4',
    );

    const name = `e2e-daily-${Date.now() % 100000}`;
    await page.getByTestId('instance-name').fill(name);
    expect(await page.getByTestId('create-button').isEnabled()).toBe(true);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
    await page.getByTestId('create-button').click();
    // A package asks before it takes the money (order-confirm.e2e.test.ts checks what it shows).
    await answerConfirm(page, '确认支付并创建');
    const body = (await (await created).json()) as Envelope<Instance>;
    expect(body.success, body.message).toBe(true);
    await page.getByText('容器创建成功，计费已开始！').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/console'));

    expect(body.data.status).toBe('CREATING');
    // Accepted at once; the provisioning job then takes it to RUNNING.
    const inst = await settledInstance<Instance>(session.accessToken, body.data.id);
    expect(inst.name).toBe(name);
    expect(inst).toMatchObject({ billingType: 'daily', gpuCount: 1, hostName: L40S_HOST, status: 'RUNNING' });
    expect(inst?.image).toBe('registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4');
    expect(yuanToUnits(await balance())).toBe(yuanToUnits(before) - yuanToUnits(payable));
    await page.close();
  });
});

describe('subscribe (states and phone width)', () => {
  it('shows the not-found state with a way back to the market', async () => {
    const context = await newContext(DESKTOP);
    const page = await openSubscribe(context, 'skuGpuId=gpu-999999&billingType=daily');
    await page.getByTestId('subscribe-not-found').waitFor();
    expect(await page.getByText('未找到指定的GPU资源').count()).toBe(1);
    await shot(page, 'subscribe-not-found-desktop');
    await page.getByTestId('back-to-market').click();
    await page.waitForURL((url) => url.pathname === '/market');
    await context.close();
  });

  it('keeps the bottom bar usable at 390 px', async () => {
    const context = await newContext(MOBILE);
    const page = await openSubscribe(context, `skuGpuId=${l40s.skuGpuId}&billingType=daily`);
    await page.getByTestId('host-card').waitFor();
    await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).waitFor({
      state: 'attached',
    });
    const noHorizontalScroll = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noHorizontalScroll).toBe(true);
    await shot(page, 'subscribe-mobile');

    // The bar sits on the screen while the top of the form shows.
    const button = await page.getByTestId('create-button').boundingBox();
    expect(button).not.toBeNull();
    if (button) {
      expect(button.y + button.height).toBeLessThanOrEqual(MOBILE.height);
      expect(button.x + button.width).toBeLessThanOrEqual(MOBILE.width);
    }
    await pickImage(page, PYTORCH);
    await page.waitForTimeout(600); // the smooth scroll that brings confirm into view
    await shot(page, 'subscribe-mobile-image-panel');
    // Confirm sits clear of the sticky bar without any further scrolling.
    const confirm = await page.getByTestId('image-confirm').boundingBox();
    const bar = await page.getByTestId('order-bar').boundingBox();
    expect(confirm && bar && confirm.y + confirm.height <= bar.y).toBe(true);
    await page.getByTestId('image-confirm').click();
    expect(await page.getByTestId('create-button').isEnabled()).toBe(true);
    // The breakdown folds out of the bar on phones.
    expect(await page.getByTestId('bar-original').isVisible()).toBe(false);
    await page.getByTestId('bar-details-toggle').click();
    expect(await page.getByTestId('bar-original').isVisible()).toBe(true);
    await shot(page, 'subscribe-mobile-details');
    await context.close();
  });
});
