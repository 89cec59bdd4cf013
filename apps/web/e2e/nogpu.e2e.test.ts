import type { RegionView } from '@gpu/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  clickSettled,
  DESKTOP,
  dialogsSettled,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  seedSession,
  shot,
  siteUrl,
  userCall,
} from './helpers';
import { instanceUntil, releaseAll } from './instance-helpers';

// No-GPU mode (无卡模式开机, issue 30): from the row's 更多 menu, a powered-off pay-as-you-go
// instance starts without GPUs; the confirmation shows the price first; the row says 无卡模式 and
// bills at that price; the bill says so with its rate. The A100 demo host (北京A区) has 3 idle
// GPUs; this file rents one and gives it back (admin-gpu-states also counts there, at another time:
// files run one at a time). For a bill line within seconds, the region's price is raised through
// the back office's API for the second run (a fen a second), then put back to the default.

const HOST = 'bj-a-a100-01';
const REGION = '北京A区';
let browser: Browser;
let context: BrowserContext;
let adminToken = '';
let regionId = 0;
const cleanup: Array<{ token: string; id: number }> = [];

const setPrice = (price: number) =>
  api<RegionView>(`/admin/regions/${regionId}`, {
    method: 'PUT',
    token: adminToken,
    body: { noGpuHourlyPrice: price },
  });

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await adminLogin()).token;
  const regions = await api<RegionView[]>('/admin/regions', { token: adminToken });
  regionId = regions.find((r) => r.name === REGION)?.id as number;
});
afterAll(async () => {
  if (regionId) await setPrice(0.1).catch(() => undefined);
  await releaseAll(cleanup);
  await context?.close();
  await browser?.close();
});

const idleA100 = async (token: string) =>
  (
    await userCall<{ list: { hostName: string; gpuIdleNum: number }[] }>(token, '/gpu/market?size=48')
  ).list.find((m) => m.hostName === HOST)?.gpuIdleNum;

/** 更多 → 无卡模式开机 on the row or card of `id`, answering the confirmation; returns its text. */
async function powerOnNoGpu(
  page: Page,
  scope: ReturnType<Page['getByTestId']>,
  name: string,
  shotName: string,
) {
  await scope.getByTestId('instance-more').click();
  await page.getByTestId('more-nogpu').click();
  const dialog = page.locator('.ant-modal-confirm').filter({ hasText: `无卡模式开机 · ${name}` });
  await dialog.waitFor();
  await dialog.getByTestId('nogpu-price').waitFor();
  const text = (await dialog.textContent()) ?? '';
  // Still, with the menu gone: the picture shows what the customer reads.
  await dialogsSettled(page);
  await page
    .locator('.ant-dropdown:not(.ant-dropdown-hidden)')
    .waitFor({ state: 'detached', timeout: 3_000 })
    .catch(() => undefined);
  await page.waitForTimeout(300);
  await shot(page, shotName);
  await clickSettled(page, dialog.getByRole('button', { name: '无卡模式开机', exact: true }));
  return text;
}

describe('console: no-GPU mode', () => {
  it('powers on without GPUs from 更多 after showing the price, shows the mode, bills it as 无卡模式', async () => {
    const owner = await registerUser();
    await fundUser(owner.accessToken, 500);
    const inst = await rentInstance(owner.accessToken, { name: 'nogpu-e2e', host: HOST });
    cleanup.push({ token: owner.accessToken, id: inst.id });
    expect(inst).toMatchObject({ status: 'RUNNING', noGpuPrice: 0.1 });
    await userCall(owner.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
    expect((await instanceUntil(owner.accessToken, inst.id, 'STOPPED')).status).toBe('STOPPED');
    const idleOff = await idleA100(owner.accessToken);

    context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { token: owner.accessToken, user: owner.user });
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/console/instance'));
    const row = page.getByTestId(`instance-row-${inst.id}`);
    await row.waitFor();

    // The price comes first in the confirmation, with what the mode is for.
    const text = await powerOnNoGpu(page, row, inst.name, 'nogpu-confirm-1440');
    expect(text).toContain('¥0.10/时');
    expect(text).toContain('拷贝、上传或下载数据与模型');
    expect(text).toContain('1 核 CPU、2 GB 内存');
    await row.getByTestId('instance-status').filter({ hasText: '运行中' }).waitFor({ timeout: 30_000 });
    await row.getByTestId('instance-nogpu').filter({ hasText: '无卡模式' }).waitFor();
    expect(await row.getByTestId('instance-nogpu-billing').textContent()).toBe('无卡模式计费中');
    expect(await row.textContent()).toContain('¥0.10/时');
    await shot(page, 'nogpu-row-1440');
    const running = await instanceUntil(owner.accessToken, inst.id, 'RUNNING');
    expect(running).toMatchObject({ noGpu: true });
    expect(running.containerId).not.toBe(inst.containerId);
    // It holds no GPU: the market's idle count is what it was while the instance was off.
    expect(await idleA100(owner.accessToken)).toBe(idleOff);

    // On a phone: the card says so too.
    const phone = await browser.newContext({ viewport: MOBILE });
    await seedSession(phone, { token: owner.accessToken, user: owner.user });
    const mobile = await phone.newPage();
    await mobile.goto(siteUrl('localhost', '/console/instance'));
    const card = mobile.getByTestId(`instance-card-${inst.id}`);
    await card.getByTestId('instance-nogpu').waitFor();
    await shot(mobile, 'nogpu-card-390');

    // Power off, then a second no-GPU run at a price that bills a fen a second (set by the admin).
    await userCall(owner.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
    await row.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor({ timeout: 30_000 });
    expect(await row.getByTestId('instance-nogpu').count()).toBe(0);
    expect((await setPrice(36)).noGpuHourlyPrice).toBe(36);
    // The back office's regions tab shows each region's price.
    const adminContext = await browser.newContext({ viewport: DESKTOP });
    const admin = await adminLogin();
    await seedSession(adminContext, { adminToken: admin.token, admin: admin.admin });
    const regionsPage = await adminContext.newPage();
    await regionsPage.goto(siteUrl('localhost', '/admin/host-management?tab=regions'));
    const regionRow = regionsPage.locator('.ant-table-row').filter({ hasText: REGION }).first();
    await regionRow.waitFor();
    expect(await regionRow.textContent()).toContain('¥36.00/时');
    await shot(regionsPage, 'nogpu-admin-regions-1440');
    await adminContext.close();
    await mobile.reload();
    const mobileCard = mobile.getByTestId(`instance-card-${inst.id}`);
    await mobileCard.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor();
    const second = await powerOnNoGpu(mobile, mobileCard, inst.name, 'nogpu-confirm-390');
    expect(second).toContain('¥36.00/时');
    await mobileCard.getByTestId('instance-nogpu').waitFor({ timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 3_000));
    await userCall(owner.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
    expect((await instanceUntil(owner.accessToken, inst.id, 'STOPPED')).status).toBe('STOPPED');
    await setPrice(0.1);

    // The bill: its own kind and rate.
    await page.goto(siteUrl('localhost', '/console/bills'));
    const line = page.locator('[data-testid^="bill-row-"]').filter({ hasText: '无卡模式' }).first();
    await line.waitFor();
    expect(await line.getByTestId('bill-rate').textContent()).toBe('¥36.00/时');
    await shot(page, 'nogpu-bills-1440');
    await mobile.goto(siteUrl('localhost', '/console/bills'));
    await mobile.locator('[data-testid^="bill-row-"]').filter({ hasText: '无卡模式' }).first().waitFor();
    await shot(mobile, 'nogpu-bills-390');
    await phone.close();

    // Released from the console as customers do: nothing left on the host.
    await userCall(owner.accessToken, `/gpu/instance/release?instance_uuid=${inst.id}`, {});
    expect((await instanceUntil(owner.accessToken, inst.id, 'RELEASED')).status).toBe('RELEASED');
  }, 180_000);
});
