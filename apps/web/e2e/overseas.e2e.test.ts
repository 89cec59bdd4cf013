import type { Bill, Envelope, Instance, Page as ListPage, MarketItem, MarketList, User } from '@gpu/shared';
import { formatYuan } from '@gpu/shared/money';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  confirmInstanceAction,
  confirmRelease,
  DESKTOP,
  fundUser,
  instanceStatusIs,
  launchBrowser,
  MOBILE,
  openPage,
  registerUser,
  seedSession,
  settledInstance,
  shot,
  userCall,
} from './helpers';

// Overseas GPUs (issue 14) against the real server, which talks to the local fake of vast.ai's
// API started by global-setup: an offer put on sale there shows in the market as vast-<id>, is
// subscribed in the browser, runs in the console with vast.ai's SSH command, is powered off and
// released, and its bill is the price shown.

const NAME = 'e2e-abroad';
let browser: Browser;
let context: BrowserContext;
let session: { accessToken: string; user: User };
let item: MarketItem;
let created: Instance;

const userApi = <T>(urlPath: string, body?: unknown) => userCall<T>(session.accessToken, urlPath, body);
const vast = async <T>(urlPath: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
  const res = await fetch(`${inject('vastUrl')}${urlPath}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${inject('vastKey')}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await res.json()) as T;
};
const instanceNow = async () =>
  (await userApi<ListPage<Instance>>('/gpu/instances?page=1&size=20')).list.find((i) => i.id === created.id);

const open = (urlPath: string, viewport?: { width: number; height: number }) =>
  openPage(context, urlPath, viewport);

const statusIs = (page: Page, text: string, timeout = 20_000) =>
  instanceStatusIs(page, created.id, text, timeout);
const confirmAction = (page: Page, action: string) => confirmInstanceAction(page, created.id, action);

const radio = (page: Page, group: string, name: string) =>
  page.getByTestId(group).getByRole('radio', { name, exact: true });

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
  await fundUser(session.accessToken, 200);
  const offer = await vast<{ id: number }>('/__fake/offers', {
    method: 'POST',
    body: { gpu_name: 'RTX 4090', num_gpus: 2, dph_total: 0.7, geolocation: 'Texas, US' },
  });
  // The server's refresh task (every 2 s here) stores the offer; the market then lists it.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const market = await userApi<MarketList>('/gpu/market?size=48');
    const found = market.list.find((i) => i.skuGpuId === `vast-${offer.id}`);
    if (found) {
      item = found;
      break;
    }
    if (Date.now() > deadline) throw new Error(`offer ${offer.id} never reached the market`);
    await new Promise((r) => setTimeout(r, 500));
  }
  context = await browser.newContext({ viewport: DESKTOP });
  await seedSession(context, { token: session.accessToken, user: session.user });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('overseas GPUs through vast.ai', () => {
  it('the market lists the offer in the overseas region, last, with B200 in the model filter', async () => {
    const market = await userApi<MarketList>('/gpu/market?size=48');
    expect(market.regions.at(-1)).toMatchObject({ id: item.regionId, overseas: true });
    expect(market.gpuModels).toContain('B200');
    expect(item).toMatchObject({ gpuName: 'RTX 4090', gpuNum: 2, gpuIdleNum: 2, isLocalDocker: false });
    const page = await open(`/market?regionId=${item.regionId}`);
    const card = page.getByTestId('gpu-card').filter({ hasText: item.hostName });
    await card.waitFor();
    expect(await card.getByTestId('gpu-card-name').textContent()).toContain('RTX 4090');
    await shot(page, 'overseas-market-1440');
    await page.close();
  });

  it('subscribes in the browser: fixed GPUs, pay-as-you-go, the offer’s images; then RUNNING', async () => {
    const page = await open(`/subscribe?skuGpuId=${item.skuGpuId}`);
    await page.getByTestId('overseas-note').waitFor();
    expect(await page.getByTestId('section-voucher').count()).toBe(0);
    // One option, the offer's GPU count, fixed.
    expect(await page.getByTestId('gpu-count').locator('input').count()).toBe(1);
    expect(await page.getByTestId('gpu-count').locator('input:checked').getAttribute('value')).toBe('2');
    await page.getByTestId('image-trigger').click();
    await radio(page, 'image-framework', 'PyTorch').click();
    await radio(page, 'image-version', '2.4.0').click();
    await radio(page, 'image-python', 'Python 3.11').click();
    await radio(page, 'image-accelerator', 'CUDA 12.1').click();
    await page.waitForFunction(() => {
      const confirm = document.querySelector<HTMLButtonElement>('[data-testid="image-confirm"]');
      return confirm !== null && !confirm.disabled;
    });
    await page.getByTestId('image-confirm').click();
    await page.getByTestId('image-panel').waitFor({ state: 'hidden' });
    await page.getByTestId('instance-name').fill(NAME);
    await shot(page, 'overseas-subscribe-1440');
    await page.setViewportSize(MOBILE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await shot(page, 'overseas-subscribe-390');
    await page.setViewportSize(DESKTOP);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/gpu/vastai/instance/create'));
    await page.getByTestId('create-button').click();
    const body = (await (await answer).json()) as Envelope<Instance>;
    expect(body.success, body.message).toBe(true);
    await page.waitForURL((url) => url.pathname.startsWith('/console'));
    created = await settledInstance<Instance>(session.accessToken, body.data.id, 30_000);
    expect(created).toMatchObject({ status: 'RUNNING', name: NAME, gpuCount: 2, billingType: 'hourly' });
    expect(created.hourlyPrice).toBeCloseTo(item.price * 2, 4);
    await page.close();
  });

  it('the console shows it running with vast.ai’s SSH command', async () => {
    const vastId = Number(created.containerId);
    const { instances } = await vast<{
      instances: { ssh_host: string; ssh_port: number; actual_status: string };
    }>(`/instances/${vastId}/`);
    expect(instances.actual_status).toBe('running');
    const command = `ssh -p ${instances.ssh_port} root@${instances.ssh_host}`;
    expect(created.sshCommand).toBe(command);
    const page = await open('/console/instance');
    await statusIs(page, '运行中');
    expect(
      await page.getByTestId(`instance-row-${created.id}`).getByTestId('ssh-command').textContent(),
    ).toContain(command);
    await shot(page, 'overseas-console-1440');
    const mobile = await open('/console/instance', MOBILE);
    await mobile.getByTestId(`instance-card-${created.id}`).waitFor();
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      MOBILE.width,
    );
    await shot(mobile, 'overseas-console-390');
    await mobile.close();
    await page.close();
  });

  it('powers off (vast.ai stops it), releases it (vast.ai destroys it), and the bill is the price shown', async () => {
    const page = await open('/console/instance');
    await statusIs(page, '运行中');
    await confirmAction(page, '关机');
    await statusIs(page, '已关机');
    const vastId = Number(created.containerId);
    const stopped = await vast<{ instances: { actual_status: string } }>(`/instances/${vastId}/`);
    expect(stopped.instances.actual_status).toBe('exited');

    const row = page.getByTestId(`instance-row-${created.id}`);
    await row.getByRole('button', { name: '释放' }).click();
    await confirmRelease(page, NAME);
    await statusIs(page, '已释放');
    const gone = await fetch(`${inject('vastUrl')}/instances/${vastId}/`, {
      headers: { authorization: `Bearer ${inject('vastKey')}` },
    });
    expect(gone.status).toBe(410);

    const after = (await instanceNow()) as Instance;
    const ranHours =
      (new Date(after.stoppedAt ?? 0).getTime() - new Date(created.runningSince ?? 0).getTime()) / 3_600_000;
    // Charged at the price shown (× GPUs) for the time it ran: accrual counts whole seconds and
    // posts whole fen, so it is short of the exact figure by less than a second's worth and a fen.
    const perHour = item.price * 2;
    const short = perHour * ranHours - after.charged;
    expect(short).toBeGreaterThanOrEqual(-1e-9);
    expect(short).toBeLessThan(0.01 + perHour / 3600);
    const bills = (await userApi<ListPage<Bill>>('/v2/billing/records?page=1&size=100')).list.filter(
      (b) => b.instanceName === NAME,
    );
    expect(formatYuan(bills.reduce((n, b) => n + b.amount, 0))).toBe(formatYuan(after.charged));
    await page.close();
  });
});
