import path from 'node:path';
import type { Instance, MarketList, User } from '@gpu/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  adminLogin,
  api,
  chooseOption,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  openPage,
  registerUser,
  seedSession,
  settledInstance,
  shot,
  userCall,
} from './helpers';

// Issue 28, back office: 主机 and 实例管理 count GPUs by one definition (空闲 / 占用 / 保留) and
// agree with each other and the market; 实例管理 lists every status with a filter and a search,
// packages priced per period; a host's port count is its range, not "0 / 0".
// The A100 host (北京A区) holds 8 GPUs, 5 held by an offline customer in the demo; this file puts
// a powered-off daily package (reserved: packages keep their GPUs) and a running pay-as-you-go
// instance (occupied) on it, and gives both back at the end.

const A100_HOST = 'bj-a-a100-01';
const A100 = 'A100 80GB';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';
const NAME = `gpus-e2e-${Date.now() % 100_000}`;

let browser: Browser;
let adminContext: BrowserContext;
let session: { accessToken: string; user: User };
let pkg: Instance;
let payg: Instance;
let adminToken: string;

const adminCall = <T>(path: string) => api<T>(path, { token: adminToken });
type HostStats = { totalGpus: number; idleGpus: number; allocatedGpus: number; reservedGpus: number };

/** Polls the owner's list until the instance is in `status` (expect.poll only runs inside a test). */
async function waitForStatus(id: number, status: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { list } = await userCall<{ list: Instance[] }>(session.accessToken, '/gpu/instances?size=100');
    const now = list.find((i) => i.id === id)?.status;
    if (now === status) return;
    if (Date.now() > deadline) throw new Error(`instance ${id} is ${now}, not ${status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  await fundUser(session.accessToken, 1_000);
  const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === A100_HOST);
  if (!item) throw new Error(`${A100_HOST} is not in the market`);
  const create = async (billingType: string, suffix: string) =>
    settledInstance<Instance>(
      session.accessToken,
      (
        await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
          machineId: item.id,
          image: IMAGE,
          gpuAmount: 1,
          billingType,
          ...(billingType === 'hourly' ? {} : { duration: 1 }),
          instanceName: `${NAME}-${suffix}`,
        })
      ).id,
    );
  pkg = await create('daily', 'pkg');
  expect(pkg.status).toBe('RUNNING');
  await userCall(session.accessToken, `/gpu/instance/power_off?instance_uuid=${pkg.id}`, {});
  await waitForStatus(pkg.id, 'STOPPED');
  payg = await create('hourly', 'payg');
  expect(payg.status).toBe('RUNNING');
  const admin = await adminLogin();
  adminToken = admin.token;
  adminContext = await browser.newContext({ viewport: DESKTOP });
  await seedSession(adminContext, { adminToken: admin.token, admin: admin.admin });
});
afterAll(async () => {
  // Gives the A100s back for the files after this one.
  for (const inst of [pkg, payg].filter(Boolean)) {
    await userCall(session.accessToken, `/gpu/instance/release?instance_uuid=${inst.id}`, {}).catch(
      () => undefined,
    );
  }
  await adminContext?.close();
  await browser?.close();
});

const numberIn = async (l: Locator) => Number((await l.textContent())?.match(/(\d+)\D*$/)?.[1]);
const cellTexts = (row: Locator) => row.locator('td').allTextContents();

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe.each([
  [DESKTOP, '1440'],
  [MOBILE, '390'],
] as const)('GPU figures at %o', (viewport, size) => {
  it('主机: the cards add up, 使用率 agrees with 空闲, the A100 row and the ports are real', async () => {
    const page = await openPage(adminContext, '/admin/host-management', viewport);
    const row = page.locator('tr.ant-table-row', { hasText: A100_HOST });
    await row.waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    const stats = await adminCall<HostStats & { gpuUtilization: number }>('/admin/hosts/statistics');
    const card = (key: string) => page.getByTestId(`host-stat-${key}`);
    await expect.poll(() => numberIn(card('gpus'))).toBe(stats.totalGpus);
    const [total = NaN, idle = NaN, occupied = NaN, reserved = NaN] = await Promise.all(
      ['gpus', 'idle', 'occupied', 'reserved'].map((k) => numberIn(card(k))),
    );
    expect([idle, occupied, reserved]).toEqual([stats.idleGpus, stats.allocatedGpus, stats.reservedGpus]);
    expect(idle + occupied + reserved).toBe(total);
    expect(await card('utilization').textContent()).toContain(
      `${Math.round(((total - idle) / total) * 100)}%`,
    );
    expect(await page.getByTestId('host-gpu-states-help').textContent()).toContain('保留：已关机的包日');

    // A100: 8 GPUs, 5 offline, 1 powered-off package, 1 running: 1 idle, as the market says.
    const cells = await cellTexts(row);
    expect(cells).toContain('1 / 8');
    const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
    expect(market.list.find((i) => i.hostName === A100_HOST)?.gpuIdleNum).toBe(1);
    // Ports: the range (200) even on a host that never placed an instance; 2 per A100 instance.
    const ports = cells.find((c) => /^\d+ \/ \d+$/.test(c) && c !== '1 / 8');
    expect(ports).toMatch(/^([4-9]|\d\d+) \/ 200$/);
    const unused = page.locator('tr.ant-table-row', { hasText: 'ah-a-3090-01' });
    expect(await cellTexts(unused)).toContain('0 / 200');
    // A provider's host hands out no ports of ours: said, not "0 / 0".
    const vast = page.locator('tr.ant-table-row', { hasText: 'Vast.ai' });
    if (await vast.count()) expect(await cellTexts(vast.first())).toContain('由供应商分配');

    // Layout: the eight cards sit inside the page, two (phone) or eight (desktop) a row.
    const boxes = await Promise.all(
      ['hosts', 'reachable', 'gpus', 'idle', 'occupied', 'reserved', 'utilization', 'ports'].map((k) =>
        card(k).boundingBox(),
      ),
    );
    for (const b of boxes) {
      expect(b).not.toBeNull();
      expect((b?.x ?? -1) + (b?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
    }
    const rows = new Set(boxes.map((b) => Math.round(b?.y ?? 0)));
    expect(rows.size).toBe(size === '1440' ? 1 : 4);
    await noSidewaysScroll(page);
    await shot(page, `admin-hosts-gpu-states-${size}`);

    // The host's GPU grid labels each GPU by the same definition as the counts.
    await row.getByRole('button', { name: A100_HOST }).click();
    const grid = page.locator('.ant-drawer').getByTestId('gpu-grid');
    await grid.waitFor({ timeout: 15_000 });
    const states = grid.getByTestId('gpu-state');
    await expect.poll(() => states.count()).toBe(8);
    const byState = await states.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(byState.filter((x) => x === 'idle')).toHaveLength(1);
    expect(byState.filter((x) => x === 'occupied')).toHaveLength(1);
    expect(byState.filter((x) => x === 'reserved')).toHaveLength(6);
    expect(await grid.textContent()).toContain(`保留：实例 #${pkg.id} 已关机`);
    await page.waitForTimeout(400); // the drawer's slide-in, before measuring and the screenshot
    const box = await grid.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? -1) + (box?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-host-gpu-grid-${size}.png`) });
    await page.close();
  });

  it('实例管理: the same GPU figures per model, every status, a filter, a search, period prices', async () => {
    const page = await openPage(adminContext, '/admin/instance-management', viewport);
    const gpuCard = page.locator('.ant-card', { hasText: 'GPU 型号' });
    const a100 = gpuCard.locator('tr.ant-table-row', { hasText: A100 });
    await a100.waitFor({ timeout: 15_000 });
    // 型号, 空闲, 占用, 保留, 总数: the hosts page's A100 row and the market agree.
    expect((await cellTexts(a100)).slice(0, 5)).toEqual([A100, '1', '1', '6', '8']);
    expect(await a100.textContent()).toContain('88%');
    const stats = await adminCall<HostStats>('/admin/hosts/statistics');
    expect(await page.getByTestId('stat-gpus').textContent()).toContain(
      `${stats.idleGpus} / ${stats.totalGpus}`,
    );

    // Every status: the powered-off package is listed, priced per day.
    const search = page.getByTestId('ops-instance-search').locator('input');
    await search.fill(session.user.phone);
    await search.press('Enter');
    const pkgRow = page.getByTestId(`ops-instance-${pkg.id}`);
    const paygRow = page.getByTestId(`ops-instance-${payg.id}`);
    await pkgRow.waitFor({ timeout: 15_000 });
    await paygRow.waitFor();
    expect(await pkgRow.getByTestId('ops-instance-status').textContent()).toBe('已关机');
    // A100 on 北京A区: ¥150 a day, 10 % off.
    expect(await pkgRow.getByTestId('ops-instance-price').textContent()).toBe('¥135.00/天');
    expect(await paygRow.getByTestId('ops-instance-price').textContent()).toMatch(/^¥[\d,]+\.\d\d\/时$/);
    await page.waitForLoadState('networkidle');
    await shot(page, `admin-instance-management-all-${size}`);

    // The status filter (Chinese labels) narrows to the powered-off one.
    await chooseOption(page, page.getByTestId('ops-status-filter'), '已关机');
    await paygRow.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await pkgRow.isVisible()).toBe(true);
    await chooseOption(page, page.getByTestId('ops-status-filter'), '全部状态');
    await paygRow.waitFor({ timeout: 15_000 });

    // Search by the instance id alone.
    await search.fill(`#${payg.id}`);
    await search.press('Enter');
    await pkgRow.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.locator('tr[data-testid^="ops-instance-"]').count()).toBe(1);

    const box = await paygRow.boundingBox();
    expect(box).not.toBeNull();
    const filters = await page.getByTestId('ops-status-filter').boundingBox();
    expect((filters?.x ?? -1) + (filters?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
    await noSidewaysScroll(page);
    await page.waitForLoadState('networkidle');
    await shot(page, `admin-instance-management-states-${size}`);
    await page.close();
  });
});
