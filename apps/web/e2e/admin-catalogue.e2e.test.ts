import path from 'node:path';
import type { MarketList } from '@gpu/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  adminLogin,
  answerConfirm,
  api,
  chooseOption,
  clickSettled,
  DESKTOP,
  dialogsClosed,
  dialogsSettled,
  launchBrowser,
  MOBILE,
  registerUser,
  seedSession,
  shot,
  siteUrl,
} from './helpers';

// The back office builds a sellable GPU from the screens: a region, an image, a simulated host
// with a price, a tenant answering its own host name (Chromium resolves *.localhost to loopback),
// that tenant's host permission and its own price; the tenant's market then shows the machine
// at the tenant's price, and other tenants keep the platform price.

const STAMP = String(Date.now()).slice(-6);
const REGION = { name: `测试${STAMP}区`, code: `e2e-${STAMP}` };
const IMAGE = { name: `PyTorch E2E ${STAMP}`, url: `pytorch/pytorch:2.5.1-e2e${STAMP}` };
const HOST = `e2e-h12a-${STAMP}`;
const TENANT = { code: `shop${STAMP}`, name: `小店算力${STAMP}`, domain: `shop${STAMP}.localhost` };
const PLATFORM_PRICE = 2.5;
const TENANT_PRICE = 3.75;
/** The platform price the GPU SKU tab sets afterwards. */
const SKU_PRICE = 2.88;

let browser: Browser;
let admin: Awaited<ReturnType<typeof adminLogin>>;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminLogin();
});
afterAll(() => browser?.close());

async function adminPage(pathname: string, viewport: { width: number; height: number } = DESKTOP) {
  const context = await browser.newContext({ viewport });
  await seedSession(context, { adminToken: admin.token, admin: admin.admin });
  const page = await context.newPage();
  await page.goto(siteUrl('localhost', pathname));
  return page;
}

const okButton = (page: Page) => page.locator('.ant-modal-footer:visible .ant-btn-primary');
const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
/** Saves the open form dialog: its OK button, the 已保存 toast, then the dialog fully closed. */
async function saveDialog(page: Page) {
  await clickSettled(page, okButton(page));
  await toast(page, '已保存');
  await dialogsClosed(page);
}
const row = (page: Page, text: string) => page.locator('.ant-table-row', { hasText: text }).first();
const adminApi = <T>(p: string) => api<T>(p, { token: admin.token });

describe('admin catalogue: from an empty catalogue to a GPU on one tenant’s market', () => {
  it('creates a region and an image on the host-management tabs', async () => {
    const page = await adminPage('/admin/host-management?tab=regions');
    await page.getByTestId('region-create').click();
    await page.getByTestId('region-name').fill(REGION.name);
    await page.getByTestId('region-code').fill(REGION.code);
    // After the demo's regions: the market's files, in whatever order they run, still find
    // 安徽A区 first (SPEC.md §9's region order).
    await page.getByTestId('region-sort').fill('9000');
    await saveDialog(page);
    await row(page, REGION.code).waitFor();

    await page.getByRole('tab', { name: '镜像' }).click();
    await page.getByTestId('image-create').click();
    await page.getByTestId('image-name').fill(IMAGE.name);
    await page.getByTestId('image-url').fill(IMAGE.url);
    await page.getByTestId('image-framework-version').fill('2.5.1');
    await page.getByTestId('image-python').fill('3.11');
    await page.getByTestId('image-cuda').fill('12.4');
    await saveDialog(page);
    await page.getByPlaceholder('名称或地址').fill(`e2e${STAMP}`);
    await page.getByPlaceholder('名称或地址').press('Enter');
    await row(page, IMAGE.url).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-images-1440.png') });

    const images = await api<{ imageList: { imageUrl: string }[] }>('/gpu/images?gpuBrand=NVIDIA');
    expect(images.imageList.map((i) => i.imageUrl)).toContain(IMAGE.url);
    await page.context().close();
  });

  it('registers a simulated host with a price, tests its connection and shows its GPU grid', async () => {
    const page = await adminPage('/admin/host-management');
    await page.getByTestId('host-create').click();
    await page.getByTestId('host-name').fill(HOST);
    await chooseOption(page, page.getByTestId('host-region'), REGION.name);
    await page.getByTestId('host-gpu-model').fill('RTX 4090');
    await page.getByTestId('host-price').fill(String(PLATFORM_PRICE));
    await saveDialog(page);
    await page.getByPlaceholder('主机名').fill(HOST);
    await page.getByPlaceholder('主机名').press('Enter');
    const hostRow = row(page, HOST);
    await hostRow.waitFor();
    expect(await hostRow.textContent()).toContain('8 / 8');

    await hostRow.getByRole('button', { name: '测试连接' }).click();
    await toast(page, '连接成功');
    await hostRow.getByRole('button', { name: HOST }).click();
    await page.getByTestId('gpu-grid').waitFor();
    expect(await page.getByTestId('gpu-grid').locator('> div').count()).toBe(8);
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-host-detail-1440.png') });
    await page.keyboard.press('Escape');

    // An edit keeps what the form does not show (the simulated GPUs stay declared).
    await hostRow.getByRole('button', { name: '编辑' }).click();
    await page.getByLabel('CPU 型号').fill('AMD EPYC 9654');
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-host-form-1440.png') });
    await saveDialog(page);
    const [saved] = (
      await adminApi<{ list: { cpuModel: string; settings: { gpus?: { model: string } } }[] }>(
        `/admin/hosts?keyword=${HOST}`,
      )
    ).list;
    expect(saved).toMatchObject({ cpuModel: 'AMD EPYC 9654', settings: { gpus: { model: 'RTX 4090' } } });
    await page.context().close();
  });

  it('creates a tenant for its own host name, grants it only the new host and gives it its own price', async () => {
    const page = await adminPage('/admin/tenants');
    await page.getByTestId('tenant-create').click();
    await page.getByTestId('tenant-form-code').fill(TENANT.code);
    await page.getByTestId('tenant-form-name').fill(TENANT.name);
    const domains = page.getByTestId('tenant-form-domains').locator('input');
    await domains.fill(TENANT.domain);
    await domains.press('Enter');
    await page.getByRole('tab', { name: '首页' }).click();
    await page.getByTestId('tenant-form-title').fill(`${TENANT.name}·按需租用`);
    // The live preview follows the form.
    await page
      .getByTestId('hero-preview')
      .filter({ hasText: `${TENANT.name}·按需租用` })
      .waitFor({ timeout: 5_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-tenant-form-1440.png') });
    await clickSettled(page, page.getByTestId('tenant-save'));
    await toast(page, '已保存');
    await row(page, TENANT.code).waitFor();

    const tenants = await adminApi<{ id: number; code: string }[]>('/admin/tenants');
    const tenantId = tenants.find((x) => x.code === TENANT.code)?.id as number;
    const hosts = await adminApi<{ list: { id: number; name: string; skus: { id: number }[] }[] }>(
      `/admin/hosts?keyword=${HOST}`,
    );
    const host = hosts.list[0] as { id: number; skus: { id: number }[] };
    const skuId = host.skus[0]?.id as number;

    await page.goto(siteUrl('localhost', `/admin/tenant-hosts?tenant=${tenantId}`));
    const hostRow = row(page, HOST);
    await hostRow.waitFor();
    await hostRow.locator('.ant-checkbox-input').check();
    await page.getByTestId('tenant-hosts-save').click();
    await toast(page, '已保存');
    expect((await adminApi<{ hostIds: number[] }>(`/admin/tenants/${tenantId}/hosts`)).hostIds).toEqual([
      host.id,
    ]);

    await page.goto(siteUrl('localhost', `/admin/tenant-host-pricing?tenant=${tenantId}`));
    await page.getByTestId(`price-edit-${skuId}`).click();
    await page.getByTestId('price-hourlyPrice').fill(String(TENANT_PRICE));
    await saveDialog(page);
    await row(page, HOST)
      .filter({ hasText: `¥${TENANT_PRICE}` })
      .waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-tenant-pricing-1440.png') });
    await page.context().close();
  });

  it('the tenant’s customer sees only that machine at the tenant’s price; other tenants see the platform price', async () => {
    const session = await registerUser(TENANT.domain);
    const context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { token: session.accessToken, user: session.user });
    const page = await context.newPage();
    await page.goto(`http://${TENANT.domain}:${new URL(siteUrl('localhost')).port}/market`);
    await page.getByTestId('gpu-card').first().waitFor();
    const cards = page.getByTestId('gpu-card');
    expect(await cards.count()).toBe(1);
    expect(await cards.first().getByTestId('gpu-card-host').textContent()).toBe(HOST);
    const perHour = (await cards.first().getByTestId('gpu-card-per-hour').textContent()) ?? '';
    expect(Number(perHour.replace(/[¥/时]/g, ''))).toBe(TENANT_PRICE);
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-tenant-market-1440.png') });
    await context.close();

    const platform = await api<MarketList>(`/gpu/market?size=48&keyword=${HOST}`);
    expect(platform.list.map((i) => [i.hostName, i.price])).toEqual([[HOST, PLATFORM_PRICE]]);
  });

  it('the GPU SKU tab: an edited hourly price reaches the market; sync says what it did', async () => {
    const page = await adminPage('/admin/host-management?tab=skus');
    const skuRow = row(page, HOST);
    await skuRow.waitFor();
    expect(await skuRow.textContent()).toContain(`¥${PLATFORM_PRICE}`);
    await skuRow.getByRole('button', { name: '编辑' }).click();
    const price = page.getByTestId('sku-price');
    await expect.poll(async () => Number(await price.inputValue())).toBe(PLATFORM_PRICE);
    await price.fill(String(SKU_PRICE));
    await shot(page, 'admin-sku-form-1440');
    await saveDialog(page);
    await skuRow.filter({ hasText: `¥${SKU_PRICE}` }).waitFor();

    // The platform market sells at the new price; the tenant keeps its own.
    const context = await browser.newContext({ viewport: DESKTOP });
    const market = await context.newPage();
    await market.goto(siteUrl('localhost', `/market?keyword=${HOST}`));
    const card = market.getByTestId('gpu-card').filter({ hasText: HOST });
    await card.waitFor();
    const perHour = (await card.getByTestId('gpu-card-per-hour').textContent()) ?? '';
    expect(Number(perHour.replace(/[¥/时]/g, ''))).toBe(SKU_PRICE);
    await shot(market, 'admin-sku-market-1440');
    await context.close();
    const tenantMarket = await api<MarketList>(`/gpu/market?size=48&keyword=${HOST}`, {
      host: TENANT.domain,
    });
    expect(tenantMarket.list.map((i) => i.price)).toEqual([TENANT_PRICE]);

    // Sync compares every host's reported GPUs with the SKUs; its message is the server's count,
    // and it keeps the price just set.
    const { total: hostCount } = await adminApi<{ total: number }>('/admin/hosts?page=1&size=1');
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
    await page.getByTestId('sku-sync').click();
    const notice = page.locator('.ant-message-notice', { hasText: 'SKU 已同步' }).first();
    await notice.waitFor();
    // Once its slide-in has ended (a shot during it showed no toast).
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.ant-message-notice')].every(
        (el) => el.getAnimations({ subtree: true }).length === 0,
      ),
    );
    await shot(page, 'admin-sku-synced-1440');
    const text = (await notice.textContent()) ?? '';
    const [, hosts, created, updated, unlisted] =
      text.match(/核对 (\d+) 台主机，新增 (\d+)，更新 (\d+)，下架 (\d+)/) ?? [];
    expect(Number(hosts)).toBe(hostCount);
    const [audit] = (
      await adminApi<{ list: { detail: Record<string, number> }[] }>(
        '/admin/audit-logs?action=gpu_sku.sync&size=1',
      )
    ).list;
    expect(audit?.detail).toEqual({
      hosts: hostCount,
      created: Number(created),
      updated: Number(updated),
      unlisted: Number(unlisted),
    });
    expect(await skuRow.textContent()).toContain(`¥${SKU_PRICE}`);
    await page.context().close();

    const phone = await adminPage('/admin/host-management?tab=skus', MOBILE);
    await row(phone, HOST).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(phone, 'admin-skus-390');
    await phone.context().close();
  });

  it('the regions tab takes a GPU type of a region off sale (after a confirm) and puts it back', async () => {
    const page = await adminPage('/admin/host-management?tab=regions');
    await chooseOption(page, page.getByTestId('gpu-types-region'), REGION.name);
    const typeRow = page.locator('.ant-table-row', { hasText: 'RTX 4090' }).filter({ hasText: '在售' });
    await typeRow.waitFor();
    const onMarket = async () =>
      (await api<MarketList>(`/gpu/market?size=48&keyword=${HOST}`)).list.map((i) => i.hostName);
    expect(await onMarket()).toEqual([HOST]);

    await typeRow.getByRole('button', { name: '停售' }).click();
    await page.locator('.ant-modal-confirm', { hasText: '市场上不再出售' }).waitFor();
    await dialogsSettled(page);
    await shot(page, 'admin-gpu-type-stop-1440');
    await answerConfirm(page, '停售');
    await toast(page, '已停售');
    const stopped = page.locator('.ant-table-row', { hasText: 'RTX 4090' }).filter({ hasText: '已停售' });
    await stopped.waitFor();
    expect(await onMarket()).toEqual([]);
    const [audit] = (
      await adminApi<{ list: { detail: { gpuModel: string; listed: boolean } }[] }>(
        '/admin/audit-logs?action=gpu_types.status&size=1',
      )
    ).list;
    expect(audit?.detail).toMatchObject({ gpuModel: 'RTX 4090', listed: false });

    await stopped.getByRole('button', { name: '恢复销售' }).click();
    await toast(page, '已恢复销售');
    await typeRow.waitFor();
    expect(await onMarket()).toEqual([HOST]);
    await shot(page, 'admin-gpu-types-1440');
    await page.context().close();
  });

  it('every screen fits a phone (390 px) without sideways scrolling of the page', async () => {
    for (const p of [
      '/admin/tenants',
      '/admin/tenant-hosts',
      '/admin/tenant-host-pricing',
      '/admin/host-management',
    ]) {
      const page = await adminPage(p, MOBILE);
      await page.locator('.ant-table').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, p).toBeLessThanOrEqual(1);
      await page.screenshot({
        path: path.join(ARTIFACTS, `admin${p.replaceAll('/', '-').replace('-admin', '')}-390.png`),
      });
      if (p === '/admin/tenants') {
        await page.getByTestId('tenant-create').click();
        await page.getByTestId('hero-preview').waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(ARTIFACTS, 'admin-tenant-form-390.png') });
      }
      await page.context().close();
    }
  });
});
