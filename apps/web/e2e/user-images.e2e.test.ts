import type { Instance, MarketList, UserImageList } from '@gpu/shared';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  DESKTOP,
  dialogsSettled,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  seedSession,
  settledInstance,
  shot,
  siteUrl,
  toast,
  userCall,
} from './helpers';
import { moreItem, releaseAll, stableInstance } from './instance-helpers';

// Save as image (保存镜像, issue 30) on the simulated driver: 更多 → 保存镜像 on a powered-off
// instance, 可用 on 我的镜像, a new instance from it through the subscribe screen's 我的镜像 tab,
// then both released and the image deleted; at 1440 px (table) and 390 px (cards).

/** Few other browser tests rent here (nm-a-l40s-01 is crowded). */
const HOST = 'bj-a-a100-01';

type HostRow = { id: number; name: string; settings: Record<string, unknown> };
let browser: Browser;
let context: BrowserContext | undefined;
let admin: string;
let host: HostRow;
const rented: Array<{ token: string; id: number }> = [];
/** The simulated host's latency: slow, a save stays 保存中 long enough to be seen. */
const setLatency = (latencyMs: number) =>
  api(`/admin/hosts/${host.id}`, {
    method: 'PUT',
    token: admin,
    body: { settings: { ...host.settings, latencyMs } },
  });
beforeAll(async () => {
  browser = await launchBrowser();
  admin = (await adminLogin()).token;
  const hosts = await api<{ list: HostRow[] }>('/admin/hosts?page=1&size=100', { token: admin });
  const found = hosts.list.find((h) => h.name === HOST) as HostRow;
  host = { ...found, settings: (await api<HostRow>(`/admin/hosts/${found.id}`, { token: admin })).settings };
});
afterAll(async () => {
  await setLatency(Number(host?.settings.latencyMs ?? 0)).catch(() => undefined);
  await releaseAll(rented);
  await context?.close();
  await browser?.close();
});

const images = (token: string) => userCall<UserImageList>(token, '/user/images');

/** The instance once no job runs on it. */
const stable = (token: string, id: number) =>
  stableInstance(token, id, ['CREATING', 'STOPPING', 'STARTING', 'RELEASING', 'SAVING_IMAGE']);

describe('console: save as image, 我的镜像, create from it', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    const phone = label === '390';
    it(`saves a powered-off instance from 更多 and creates a new one from it (${label} px)`, async () => {
      const session = await registerUser();
      const token = session.accessToken;
      await fundUser(token, 500);
      const inst = await rentInstance(token, { name: `img-src-${label}`, host: HOST });
      rented.push({ token, id: inst.id });
      expect(inst.status).toBe('RUNNING');

      context = await browser.newContext({ viewport });
      await seedSession(context, { token, user: session.user });
      const page = await context.newPage();
      await page.goto(siteUrl('localhost', '/console/instance'));
      const row = page.getByTestId(`instance-${phone ? 'card' : 'row'}-${inst.id}`);
      await row.waitFor();

      // Running: 保存镜像 is there, disabled, and says why.
      const refused = await moreItem(page, row, /保存镜像（需先关机）/);
      expect(await refused.getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');

      await userCall(token, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
      expect((await stable(token, inst.id)).status).toBe('STOPPED');
      await page.reload();
      await row.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor({ timeout: 20_000 });

      await (await moreItem(page, row, /^保存镜像$/)).click();
      await page.getByTestId('save-image-dialog').waitFor();
      await dialogsSettled(page);
      const name = `环境-${label}`;
      await page.getByTestId('save-image-name').fill(name);
      await page.getByTestId('save-image-description').fill('PyTorch 与依赖');
      await shot(page, `save-image-dialog-${label}`);
      // A slow host: the commit takes seconds, as a real one takes minutes.
      await setLatency(4000);
      await page.locator('#save-image-confirm').click();
      await toast(page, '正在保存镜像');
      await row.getByTestId('instance-status').filter({ hasText: '保存镜像中' }).waitFor();
      await shot(page, `save-image-saving-row-${label}`);

      // 我的镜像: 保存中 (with progress) until the job is done, then 可用.
      await page.goto(siteUrl('localhost', '/console/images'));
      await page.getByTestId('my-images').waitFor();
      const saved = (await images(token)).items[0];
      expect(saved).toMatchObject({ name, description: 'PyTorch 与依赖', sourceInstanceId: inst.id });
      if (saved?.status === 'SAVING') {
        await page.getByTestId(`image-status-${saved.id}`).filter({ hasText: '保存中' }).waitFor();
        await page.waitForFunction(() => !document.querySelector('.ant-spin-blur, .ant-spin-spinning'));
        await shot(page, `my-images-saving-${label}`);
      }
      await setLatency(Number(host.settings.latencyMs ?? 0));
      await page
        .getByTestId(`image-status-${saved?.id}`)
        .filter({ hasText: '可用' })
        .waitFor({ timeout: 20_000 });
      const ready = (await images(token)).items[0];
      expect(ready).toMatchObject({ status: 'AVAILABLE', progress: 100, hostName: HOST });
      expect(await page.getByTestId(`image-row-${ready?.id}`).textContent()).toContain('1.0 GB');
      await shot(page, `my-images-${label}`);
      expect((await stable(token, inst.id)).status).toBe('STOPPED');

      // A new instance from it: the subscribe screen's 我的镜像 tab.
      const market = await userCall<MarketList>(token, '/gpu/market?size=48');
      const item = market.list.find((i) => i.hostName === HOST);
      await page.goto(siteUrl('localhost', `/subscribe?skuGpuId=${item?.skuGpuId}&billingType=hourly`));
      await page.getByTestId('image-tab-mine').click();
      const pick = page.getByTestId(`my-image-${ready?.id}`);
      await pick.waitFor();
      await pick.click();
      await page.getByTestId('instance-name').fill(`img-copy-${label}`);
      await page.waitForTimeout(300);
      await shot(page, `subscribe-my-image-${label}`);
      const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
      await page.getByTestId('create-button').click();
      const body = (await (await created).json()) as { code: number; data: Instance };
      expect(body.data?.image).toBe(ready?.image);
      rented.push({ token, id: body.data.id });
      expect((await settledInstance<Instance>(token, body.data.id)).status).toBe('RUNNING');

      // Release both, then delete the image behind its confirmation.
      for (const id of [inst.id, body.data.id]) {
        await userCall(token, `/gpu/instance/release?instance_uuid=${id}`, {});
        expect((await stable(token, id)).status).toBe('RELEASED');
      }
      await page.goto(siteUrl('localhost', '/console/images'));
      await page.getByTestId(`image-delete-${ready?.id}`).click();
      await page.locator('.ant-popconfirm:visible').getByText(`删除镜像「${name}」？`).waitFor();
      await page.locator('#image-delete-confirm').click();
      await toast(page, '镜像已删除');
      await page.getByText('还没有镜像').waitFor();
      expect((await images(token)).items).toEqual([]);
      await shot(page, `my-images-empty-${label}`);
      await context.close();
      context = undefined;
    }, 120_000);
  }
});

describe('back office: the per-user image quota', () => {
  it('shows and saves it on the image catalogue tab (audited on the server)', async () => {
    const login = await adminLogin();
    context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { adminToken: login.token, admin: login.admin });
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/admin/host-management?tab=images'));
    const card = page.getByTestId('image-quota');
    await card.waitFor();
    const count = page.getByTestId('quota-count');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="quota-count"]') as HTMLInputElement | null)?.value === '5',
    );
    await count.fill('6');
    await page.getByTestId('quota-save').click();
    await toast(page, '配额已保存');
    expect(await api<{ maxCount: number }>('/admin/user-images/quota', { token: login.token })).toEqual({
      maxCount: 6,
      maxTotalGb: 100,
    });
    await shot(page, 'admin-image-quota-1440');
    await api('/admin/user-images/quota', {
      method: 'PUT',
      token: login.token,
      body: { maxCount: 5, maxTotalGb: 100 },
    });
    await context.close();
    context = undefined;
  }, 60_000);
});
