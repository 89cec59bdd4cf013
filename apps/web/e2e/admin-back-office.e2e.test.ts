import type { User } from '@gpu/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  seedSession,
  shot,
  siteUrl,
} from './helpers';
import { expectNoSidewaysScroll } from './screen-helpers';

// Back office, part 2 (issue 28): 代金券发放 names the phones it skips, 操作日志 speaks Chinese,
// and 仪表盘 is an operations dashboard. Both sizes, text and layout.

const SIZES = [
  [DESKTOP, '1440'],
  [MOBILE, '390'],
] as const;
const CONFIG_NAME = `跳过券${Date.now() % 100_000}`;
const UNREGISTERED = '13000000009';

let browser: Browser;
let admin: Awaited<ReturnType<typeof adminLogin>>;
let user: { accessToken: string; user: User };
let staleHostId: number | undefined;
const contexts: BrowserContext[] = [];

const adminApi = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  api<T>(path, { ...init, token: admin.token });

async function adminPage(viewport: { width: number; height: number }, urlPath: string) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  contexts.push(context);
  await seedSession(context, { adminToken: admin.token, admin: admin.admin });
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', urlPath));
  return page;
}

/** The element lies inside the viewport's width. */
async function fitsWidth(page: Page, element: Locator) {
  const box = await element.boundingBox();
  if (!box) throw new Error('not shown');
  const width = page.viewportSize()?.width ?? 0;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 1);
  return box;
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminLogin();
  user = await registerUser();
  // Money this period (the trend has something to draw), and a user with none (a low balance).
  await fundUser(user.accessToken, 100);
  await registerUser();
  await adminApi('/admin/vouchers/configs', { body: { name: CONFIG_NAME, faceAmount: 5, validDays: 30 } });
  // A host the market sync cannot reach: the dashboard lists it among hosts not seen.
  const hosts = await adminApi<{ list: { regionId: number }[] }>('/admin/hosts?page=1&size=1');
  staleHostId = (
    await adminApi<{ id: number }>('/admin/hosts', {
      body: {
        name: `e2e-stale-${Date.now() % 100_000}`,
        regionId: hosts.list[0]?.regionId,
        driver: 'simulated',
        settings: { latencyMs: 0, failureRate: 0, unreachable: true },
      },
    })
  ).id;
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  if (staleHostId) await adminApi(`/admin/hosts/${staleHostId}`, { method: 'DELETE' }).catch(() => undefined);
  await browser?.close();
});

describe('代金券发放 names each phone it skips', () => {
  it.each(SIZES)('lists the skipped phones with their reason, copyable, at %o', async (viewport, name) => {
    const page = await adminPage(viewport, '/admin/voucher-distribution');
    await page.getByTestId('dist-config').click();
    await page.getByTitle(`${CONFIG_NAME}（¥5.00）`).click();
    const phones = [user.user.phone, 'abc123', user.user.phone, UNREGISTERED];
    await page.getByTestId('dist-phones').fill(phones.join('\n'));
    await page.getByTestId('dist-preview').click();
    const preview = await page.getByTestId('dist-preview-result').textContent();
    // The second pass finds the user already holding the config's one voucher.
    const first = name === '1440';
    expect(preview).toContain(first ? '共 1 位用户' : '其中 1 位已达每人限领');
    expect(preview).toContain(`${first ? 3 : 4} 个手机号将被跳过`);
    await page.getByTestId('dist-execute').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();

    const result = page.getByTestId('dist-result');
    await result.waitFor();
    expect(await result.getByTestId('dist-result-summary').textContent()).toBe(
      `已发放 ${first ? 1 : 0} 张代金券，跳过 ${first ? 3 : 4} 个手机号`,
    );
    const rows = await result
      .getByTestId('dist-skipped')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([
      ['abc123', '手机号格式不正确'],
      [user.user.phone, '名单中重复'],
      [UNREGISTERED, '未注册'],
      ...(first ? [] : [[user.user.phone, '已达每人限领']]),
    ]);
    // Copied as phone<TAB>reason lines (two columns when pasted into a spreadsheet).
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await result.getByTestId('dist-skipped-copy').click();
    await page.locator('.ant-message-notice', { hasText: '跳过名单已复制' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      rows.map((r) => r.join('\t')).join('\n'),
    );
    await fitsWidth(page, page.locator('.ant-modal-container', { has: result }));
    await expectNoSidewaysScroll(page);
    await page.waitForTimeout(400); // the modal's zoom-in, for the screenshot
    await shot(page, `admin-dist-skipped-${name}`);
    await page.locator('.ant-modal').getByRole('button', { name: '知道了' }).click();
    await result.waitFor({ state: 'detached' });
  });
});

describe('操作日志 in Chinese', () => {
  it.each(SIZES)('names actions, targets and detail fields in Chinese at %o', async (viewport, name) => {
    const page = await adminPage(viewport, '/admin/audit-logs');
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor({ timeout: 15_000 });
    // No row shows a bare code (`voucher-distribution.execute`, `instance:12`).
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(2, 4).map((td) => td.textContent ?? '')),
    );
    for (const [action, target] of cells) {
      expect(action).not.toMatch(/[a-z_-]+\.[a-z_]+/);
      expect(target).not.toMatch(/^[a-z-]+:/);
    }
    // The filter's options are the same Chinese names.
    // Searched by its Chinese name (the list is long and virtual).
    const filter = page.getByTestId('audit-action-filter');
    await filter.click();
    await page.keyboard.type('发放代金');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '发放代金券' })
      .click();
    await expect.poll(() => filter.textContent()).toBe('发放代金券');
    const search = page.getByTestId('audit-target-filter').locator('input');
    await search.fill('代金券发放');
    await search.press('Enter');
    const row = rows.filter({ hasText: '发放代金券' }).first();
    await row.waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => (await rows.allTextContents()).every((t) => t.includes('发放代金券')))
      .toBe(true);
    expect(await row.textContent()).toMatch(/代金券发放 #\d+/);
    await expectNoSidewaysScroll(page);
    await shot(page, `admin-audit-chinese-${name}`);

    if (name === '390') await row.locator('td').first().click();
    else await row.getByTestId('audit-detail-open').click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByTestId('audit-detail-json').waitFor();
    expect(await drawer.getByTestId('audit-detail-action').textContent()).toBe('发放代金券');
    expect(await drawer.getByTestId('audit-detail-target').textContent()).toMatch(/^代金券发放 #\d+$/);
    const labels = await drawer
      .getByTestId('audit-detail-json')
      .locator('.ant-descriptions-item-label')
      .allTextContents();
    expect(labels).toEqual(
      expect.arrayContaining(['代金券配置编号', '发放对象', '目标人数', '发放张数', '跳过的手机号']),
    );
    for (const label of labels) expect(label).toMatch(/[\u4e00-\u9fff]/);
    // Coded values in Chinese too: the target's type, each skip's reason.
    const json = drawer.getByTestId('audit-detail-json');
    expect(await json.textContent()).toContain('指定手机号');
    const skipped = await json
      .locator('.ant-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(skipped).toEqual(expect.arrayContaining([['abc123', '手机号格式不正确']]));
    expect(await json.textContent()).not.toMatch(/at_limit|not_registered|invalid|phones/);
    await page.waitForTimeout(500); // the drawer's slide-in, for the screenshot
    await fitsWidth(
      page,
      page.locator('.ant-drawer-section', { has: page.getByTestId('audit-detail-json') }),
    );
    // Nothing inside the drawer sticks out past its body either.
    const overflow = await drawer
      .locator('.ant-drawer-body')
      .evaluateAll((bodies) => Math.max(...bodies.map((b) => b.scrollWidth - b.clientWidth)));
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, `admin-audit-drawer-${name}`);
  });
});

describe('仪表盘 is an operations dashboard', () => {
  it.each(SIZES)(
    'shows trends, occupancy, failures, hosts not seen and low balances at %o',
    async (viewport, name) => {
      const page = await adminPage(viewport, '/admin/dashboard');
      const dash = page.getByTestId('ops-dashboard');
      await dash.getByTestId('dashboard-trend').waitFor({ timeout: 15_000 });
      expect(await page.locator('h1').first().textContent()).toBe('仪表盘');
      expect(await dash.getByTestId('dashboard-trend').getAttribute('data-points')).toBe('7');
      for (const label of ['充值合计', '消费合计', '收入合计', '创建失败', '失联主机', '低余额用户'])
        await dash.getByText(label, { exact: true }).first().waitFor();
      // Money through formatMoney: ¥ and two decimals.
      expect(await dash.getByTestId('stat-recharge-value').textContent()).toMatch(/^¥[\d,]+\.\d{2}$/);

      // 30 days: a point per day.
      await dash.getByTestId('dashboard-period').getByText('近 30 天').click();
      await expect.poll(() => dash.getByTestId('dashboard-trend').getAttribute('data-points')).toBe('30');

      // Occupancy by model, then by host: the L40S host among them, with its three counts.
      const occupancy = dash.getByTestId('card-occupancy');
      expect(await occupancy.getByTestId('occupancy-row').count()).toBeGreaterThan(0);
      await occupancy.getByTestId('occupancy-by').getByText('按主机').click();
      const l40s = occupancy.getByTestId('occupancy-row').filter({ hasText: 'nm-a-l40s-01' });
      expect(await l40s.textContent()).toMatch(/占用 \d+ · 保留 \d+ · 空闲 \d+ \/ 共 \d+/);

      // The unreachable host is not seen, its last probe (or none) in Shanghai time.
      const stale = dash.getByTestId('card-stale');
      expect(await stale.textContent()).toContain('超过 10 分钟未探测成功的启用主机');
      const host = stale.getByTestId('stale-row').filter({ hasText: 'e2e-stale-' });
      await host.waitFor();
      expect(await host.textContent()).toMatch(/最近探测 (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}|从未探测)/);

      const failed = dash.getByTestId('card-failed');
      const count = Number((await failed.textContent())?.match(/所选周期内共 (\d+) 次/)?.[1]);
      expect(Number.isInteger(count)).toBe(true);
      if (count === 0) await failed.getByText('所选周期内没有创建失败的实例').waitFor();
      else expect(await failed.getByTestId('failed-row').count()).toBeGreaterThan(0);

      // Low balances: one click opens 调整余额 for that user.
      const low = dash.getByTestId('card-low');
      expect(await low.textContent()).toMatch(/可用余额低于 ¥10\.00 的用户，共 \d+ 位/);
      const first = low.getByTestId('low-row').first();
      const phone = (await first.locator('div').first().locator('div').first().textContent()) ?? '';
      expect(phone).toMatch(/^1\d{10}$/);

      // Layout: nothing sideways; on a phone the cards stack at full width, on a desktop two a row.
      await expectNoSidewaysScroll(page);
      const [occBox, failedBox, trendBox] = await Promise.all(
        ['card-occupancy', 'card-failed', 'card-trend'].map((id) => dash.getByTestId(id).boundingBox()),
      );
      if (!occBox || !failedBox || !trendBox) throw new Error('dashboard cards not shown');
      for (const box of [occBox, failedBox, trendBox])
        expect(box.x + box.width).toBeLessThanOrEqual((viewport.width as number) + 1);
      if (name === '390') {
        expect(failedBox.y).toBeGreaterThan(occBox.y + occBox.height - 1);
        expect(occBox.width).toBeCloseTo(trendBox.width, 0);
      } else {
        expect(failedBox.y).toBeCloseTo(occBox.y, 0);
        expect(failedBox.x).toBeGreaterThan(occBox.x + occBox.width - 1);
      }
      // The chart's canvas is as wide as its card's body.
      const canvas = await dash.getByTestId('dashboard-trend').locator('canvas').first().boundingBox();
      expect(canvas?.width ?? 0).toBeGreaterThan(trendBox.width - 80);
      expect(canvas?.width ?? 0).toBeLessThanOrEqual(trendBox.width);
      await shot(page, `admin-dashboard-${name}`);

      await first.getByTestId('low-adjust').click();
      const modal = page.locator('.ant-modal').filter({ hasText: '调整用户余额' });
      await modal.waitFor();
      expect(await modal.textContent()).toContain(phone);
      await page.waitForTimeout(400);
      await fitsWidth(page, page.locator('.ant-modal-container', { hasText: '调整用户余额' }));
      await shot(page, `admin-dashboard-adjust-${name}`);
      await modal
        .getByRole('button', { name: '取 消' })
        .or(modal.getByRole('button', { name: '取消' }))
        .first()
        .click();
      await modal.waitFor({ state: 'hidden' });
    },
  );
});
