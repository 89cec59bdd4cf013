import type { Instance, MarketItem, MarketList, User } from '@gpu/shared';
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
  settledInstance,
  userCall,
} from './helpers';
import { openContext, shot, visit } from './screen-helpers';

// Issue "What customers see", item 1: submitting an order says it is placed and the instance is
// being created; '容器创建成功，计费已开始！' (SPEC) only once it is 运行中; a failed create says
// 容器创建失败 with the reason and whether money was taken, and offers 重新创建 and 删除记录.

const HOST = 'nm-a-l40s-01';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';
const PLACED = '订单已提交，正在创建实例，创建完成后开始计费';
const SUCCESS = '容器创建成功，计费已开始！';

type HostRow = { id: number; name: string; settings: Record<string, unknown> };
let browser: Browser;
let admin: string;
let hostId: number;
let settings: Record<string, unknown>;
const setHost = (change: Record<string, unknown>) =>
  api(`/admin/hosts/${hostId}`, {
    method: 'PUT',
    token: admin,
    body: { settings: { ...settings, ...change } },
  });

beforeAll(async () => {
  browser = await launchBrowser();
  admin = (await adminLogin()).token;
  const hosts = await api<{ list: HostRow[] }>('/admin/hosts?page=1&size=100', { token: admin });
  hostId = (hosts.list.find((h) => h.name === HOST) as HostRow).id;
  settings = (await api<HostRow>(`/admin/hosts/${hostId}`, { token: admin })).settings;
});
afterAll(async () => {
  await setHost({}).catch(() => undefined);
  await browser?.close();
});

/** Releases every instance of this user that still holds GPUs, and waits until they are gone. */
async function releaseAll(token: string) {
  const holding = (list: Instance[]) => list.filter((i) => !['RELEASED', 'FAILED'].includes(i.status));
  const list = () =>
    userCall<{ list: Instance[] }>(token, '/gpu/instances?page=1&size=100').then((r) => r.list);
  for (const inst of holding(await list()))
    if (inst.status !== 'RELEASING')
      await userCall(token, `/gpu/instance/release?instance_uuid=${inst.id}`, {}).catch(() => undefined);
  const deadline = Date.now() + 30_000;
  while (holding(await list()).length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 300));
}

const toastLocator = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

/** The order page for the L40S host, pay-as-you-go: image, name, 立即创建. */
async function order(page: Page, item: MarketItem, name: string) {
  await page.goto(
    page.url().replace(/\/console.*$/, `/subscribe?skuGpuId=${item.skuGpuId}&billingType=hourly`),
  );
  // (On phones the quote line sits in a collapsed bar: attached, not visible.)
  await page
    .getByTestId('quote-state')
    .and(page.locator('[data-state="verified"]'))
    .first()
    .waitFor({ state: 'attached' });
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
  const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
  await page.getByTestId('create-button').click();
  const body = (await (await created).json()) as { data: Instance };
  return body.data;
}

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
] as const) {
  const mobile = label === '390';
  describe(`create feedback (${label} px)`, () => {
    let context: BrowserContext;
    let page: Page;
    let session: { accessToken: string; user: User };
    let item: MarketItem;
    const rowOf = (id: number): Locator => page.getByTestId(`instance-${mobile ? 'card' : 'row'}-${id}`);

    beforeAll(async () => {
      session = await registerUser();
      await fundUser(session.accessToken, 1000);
      // A block uses up to four of the host's GPUs at once (a failed create keeps its GPU until the
      // reconcile task, every minute, knows its container is gone): wait until four are free.
      const deadline = Date.now() + 90_000;
      for (;;) {
        const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
        item = market.list.find((i) => i.hostName === HOST) as MarketItem;
        if ((item?.gpuIdleNum ?? 0) >= 4 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      context = await openContext(browser, viewport, { token: session.accessToken, user: session.user });
      page = await visit(context, '/console/instance');
    });
    afterAll(async () => {
      await setHost({});
      await context?.close();
      // Give the host's GPUs back: the next block (and the next files) buy on the same host.
      if (session) await releaseAll(session.accessToken);
    });

    it('says the order is placed; 容器创建成功，计费已开始！ only once the row is 运行中', async () => {
      await setHost({ latencyMs: 1500 });
      const accepted = await order(page, item, `slow-${label}`);
      expect(accepted.status).toBe('CREATING');
      await toastLocator(page, PLACED).first().waitFor();
      await page.goto(page.url().replace(/\/console.*$/, '/console/instance'));
      const row = rowOf(accepted.id);
      await row.getByTestId('instance-status').filter({ hasText: '创建中' }).waitFor();
      // While 创建中: no success message anywhere.
      expect(await toastLocator(page, SUCCESS).count()).toBe(0);
      await shot(page, `create-feedback-creating-${label}`);
      await row.getByTestId('instance-status').filter({ hasText: '运行中' }).waitFor({ timeout: 40_000 });
      await toastLocator(page, SUCCESS).first().waitFor({ timeout: 10_000 });
      await setHost({});
    });

    it('a failed create: 容器创建失败 with the reason and 未扣费, then 重新创建 with the same settings', async () => {
      await setHost({ unreachable: true });
      const balanceBefore = (await userCall<{ available: number }>(session.accessToken, '/user/balance'))
        .available;
      const accepted = await order(page, item, `fail-${label}`);
      await toastLocator(page, PLACED).first().waitFor();
      const failedToast = toastLocator(page, `实例「fail-${label}」创建失败：GPU 主机无法连接，未扣费`);
      await failedToast.first().waitFor({ timeout: 20_000 });
      expect(await toastLocator(page, SUCCESS).count()).toBe(0);
      await page.goto(page.url().replace(/\/console.*$/, '/console/instance'));
      const row = rowOf(accepted.id);
      await row.getByTestId('instance-status').filter({ hasText: '创建失败' }).waitFor();
      const note = row.getByTestId('failure-note');
      expect(await note.textContent()).toContain('容器创建失败');
      expect(await row.getByTestId('failure-reason').textContent()).toBe('GPU 主机无法连接');
      expect(await row.getByTestId('failure-money').textContent()).toBe('未扣费');
      expect((await userCall<{ available: number }>(session.accessToken, '/user/balance')).available).toBe(
        balanceBefore,
      );
      const recreate = row.getByRole('button', { name: '重新创建' });
      const dismiss = row.getByRole('button', { name: '删除记录' });
      expect(await recreate.isVisible()).toBe(true);
      expect(await dismiss.isVisible()).toBe(true);
      await shot(page, `create-feedback-failed-${label}`);
      // Both buttons inside the viewport, with their whole labels.
      const btnBox = await dismiss.boundingBox();
      expect(btnBox && btnBox.x + btnBox.width <= viewport.width).toBe(true);
      expect(await dismiss.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // Not clipped by their cell (the table's fixed actions column).
      for (const button of [recreate, dismiss]) {
        const inside = await button.evaluate((el) => {
          const cell = el.closest('td');
          return !cell || el.getBoundingClientRect().right <= cell.getBoundingClientRect().right;
        });
        expect(inside).toBe(true);
      }

      await setHost({});
      const again = page.waitForResponse((r) => r.url().includes('/api/gpu/instance/recreate'));
      await recreate.click();
      const fresh = ((await (await again).json()) as { data: Instance }).data;
      expect(fresh).toMatchObject({
        name: `fail-${label}`,
        billingType: 'hourly',
        gpuCount: 1,
        image: IMAGE,
      });
      await toastLocator(page, PLACED).first().waitFor();
      await row.waitFor({ state: 'detached' });
      await rowOf(fresh.id)
        .getByTestId('instance-status')
        .filter({ hasText: '运行中' })
        .waitFor({ timeout: 30_000 });
      await toastLocator(page, SUCCESS).first().waitFor({ timeout: 10_000 });
    });

    it('a failed package says 已退款; 删除记录 takes the row away', async () => {
      await setHost({ unreachable: true });
      const accepted = await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
        machineId: item.id,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'daily',
        duration: 1,
        instanceName: `pkg-${label}`,
      });
      const failed = await settledInstance<Instance>(session.accessToken, accepted.id);
      expect(failed.status).toBe('FAILED');
      await setHost({});
      await page.goto(page.url().replace(/\/(console|subscribe).*$/, '/console/instance'));
      const row = rowOf(accepted.id);
      await row.getByTestId('failure-money').filter({ hasText: '已退款' }).waitFor();
      await row.getByRole('button', { name: '删除记录' }).click();
      await toastLocator(page, '记录已删除').first().waitFor();
      await row.waitFor({ state: 'detached' });
      const { list } = await userCall<{ list: Instance[] }>(session.accessToken, '/gpu/instances?size=100');
      expect(list.find((i) => i.id === accepted.id)).toBeUndefined();
    });
  });
}
