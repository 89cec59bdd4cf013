import type { Instance, MarketList, User } from '@gpu/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  DESKTOP,
  dialogsSettled,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  settledInstance,
  toast,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// Issue "What customers see", items 2 and 3: the 连接 drawer (SSH, JupyterLab with its token,
// VS Code / PyCharm, a TensorBoard port forward) and the first-instance hint; released rows
// hidden by default with 释放于, rename, the release dialog's name hint and its prepaid notice,
// names that never break mid-token. Each at 1440 and 390 px.

const HOST = 'nm-a-l40s-01';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function world(label: string) {
  const session: { accessToken: string; user: User } = await registerUser();
  await fundUser(session.accessToken, 1000);
  const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === HOST);
  if (!item) throw new Error(`${HOST} is not in the market`);
  const create = async (instanceName: string, billingType: 'hourly' | 'daily') => {
    const accepted = await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
      machineId: item.id,
      image: IMAGE,
      gpuAmount: 1,
      billingType,
      duration: 1,
      instanceName,
    });
    return settledInstance<Instance>(session.accessToken, accepted.id);
  };
  // 50 characters without a hyphen: one token that must not break.
  const long = `Trainingrunwithaverylongnamethatkeepsgoing${label}xxxxxxxxxx`.slice(0, 50);
  const pkg = await create(long, 'daily');
  const old = await create(`old-${label}`, 'hourly');
  await api(`/gpu/instance/release?instance_uuid=${old.id}`, { token: session.accessToken, body: {} });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { list } = await userCall<{ list: Instance[] }>(session.accessToken, '/gpu/instances?size=100');
    if (list.find((i) => i.id === old.id)?.status === 'RELEASED') break;
    if (Date.now() > deadline) throw new Error('release did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { session, pkg, old };
}

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
] as const) {
  const mobile = label === '390';
  describe(`instances: details customers see (${label} px)`, () => {
    let context: BrowserContext;
    let page: Page;
    let w: Awaited<ReturnType<typeof world>>;
    const rowOf = (id: number): Locator => page.getByTestId(`instance-${mobile ? 'card' : 'row'}-${id}`);

    beforeAll(async () => {
      w = await world(label);
      context = await openContext(browser, viewport, { token: w.session.accessToken, user: w.session.user });
      page = await visit(context, '/console/instance');
      await rowOf(w.pkg.id).waitFor();
    });
    afterAll(() => context?.close());

    it('hides released instances by default; the toggle shows them with 释放于 <time>', async () => {
      expect(await rowOf(w.old.id).count()).toBe(0);
      await page.getByTestId('show-released').click();
      await rowOf(w.old.id).waitFor();
      expect(page.url()).toContain('released=1');
      const old = rowOf(w.old.id);
      expect(await old.getByTestId('instance-status').textContent()).toBe('已释放');
      const time = (await old.getByTestId('instance-time-main').textContent()) ?? '';
      expect(time).toMatch(/^释放于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      await shot(page, `instance-details-released-${label}`);
      await page.getByTestId('show-released').click();
      await old.waitFor({ state: 'detached' });
    });

    it('keeps a long name and the id on one line (ellipsis, whole name in a tooltip)', async () => {
      const row = rowOf(w.pkg.id);
      const name = row.getByTestId('instance-name');
      expect(await name.textContent()).toBe(w.pkg.name);
      const box = await name.evaluate((el) => {
        const s = getComputedStyle(el);
        return {
          whiteSpace: s.whiteSpace,
          overflow: s.textOverflow,
          height: el.getBoundingClientRect().height,
          lineHeight: Number.parseFloat(s.lineHeight) || 24,
          clipped: el.scrollWidth > el.clientWidth,
        };
      });
      expect(box.whiteSpace).toBe('nowrap');
      expect(box.overflow).toBe('ellipsis');
      expect(box.height).toBeLessThanOrEqual(box.lineHeight + 2);
      expect(box.clipped).toBe(true);
      const id = row.getByTestId('instance-id');
      const idBox = await id.evaluate((el) => ({
        whiteSpace: getComputedStyle(el).whiteSpace,
        height: el.getBoundingClientRect().height,
      }));
      expect(idBox.whiteSpace).toBe('nowrap');
      expect(idBox.height).toBeLessThan(24);
      await expectNoSidewaysScroll(page);
      await name.hover();
      await page.locator('.ant-tooltip', { hasText: w.pkg.name }).first().waitFor();
      await page.mouse.move(0, 0);
    });

    it('shows the three-step hint once, until it is dismissed (remembered after a reload)', async () => {
      const hint = page.getByTestId('connect-hint');
      await hint.waitFor();
      const text = (await hint.textContent()) ?? '';
      expect(text).toContain('三步连上您的实例');
      expect(text).toContain('点击实例的「连接」按钮');
      expect(text).toContain('VS Code 或 PyCharm');
      expect(text).toContain('链接已带令牌');
      await shot(page, `instance-details-hint-${label}`);
      await hint.getByRole('button', { name: '知道了' }).click();
      await hint.waitFor({ state: 'detached' });
      await page.reload();
      await rowOf(w.pkg.id).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('connect-hint').count()).toBe(0);
    });

    it('连接 opens a drawer: SSH and password (reveal, copy), JupyterLab with its token, IDE steps, ssh -L', async () => {
      const row = rowOf(w.pkg.id);
      const jupyterHref = `${w.pkg.jupyterUrl}?token=${encodeURIComponent(w.pkg.jupyterToken as string)}`;
      expect(await row.getByTestId('jupyter-link').getAttribute('href')).toBe(jupyterHref);
      await row.getByTestId('connect-open').click();
      const drawer = page.locator('.ant-drawer', { hasText: `连接实例 · ${w.pkg.name}` });
      await drawer.waitFor();
      await dialogsSettled(page);
      const ssh = w.pkg.sshCommand as string;
      expect(await drawer.getByTestId('connect-ssh-command').textContent()).toContain(ssh);
      const password = drawer.getByTestId('connect-ssh-password');
      expect(await password.textContent()).not.toContain(w.pkg.sshPassword as string);
      await drawer.getByRole('button', { name: '显示密码' }).click();
      expect(await password.textContent()).toContain(w.pkg.sshPassword as string);
      expect(await drawer.getByRole('button', { name: '复制密码' }).count()).toBe(1);
      const link = drawer.getByTestId('connect-jupyter-link');
      expect(await link.getAttribute('href')).toBe(jupyterHref);
      expect(await link.getAttribute('target')).toBe('_blank');
      const ide = (await drawer.getByTestId('connect-ide').textContent()) ?? '';
      expect(ide).toContain('Remote-SSH: Connect to Host');
      expect(ide).toContain('PyCharm');
      const port = /-p\s+(\d+)/.exec(ssh)?.[1] as string;
      expect(ide).toContain(`端口 ${port}，用户名 root`);
      const tunnel = (await drawer.getByTestId('connect-tunnel-command').textContent()) ?? '';
      expect(tunnel).toBe(ssh.replace(/^ssh /, 'ssh -L 6006:localhost:6006 '));
      expect(await drawer.getByTestId('connect-tunnel').textContent()).toContain('http://localhost:6006');
      const width = await page
        .locator('.ant-drawer-content-wrapper')
        .evaluate((el) => el.getBoundingClientRect().width);
      if (mobile) expect(width).toBe(viewport.width);
      else expect(width).toBe(560);
      // The title keeps to one line (the long name ends in an ellipsis).
      const title = drawer.locator('.ant-drawer-title');
      expect(await title.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(32);
      await page.mouse.move(0, 0);
      await shot(page, `instance-details-connect-${label}`, false);
      await drawer
        .getByRole('button', { name: 'Close' })
        .or(drawer.locator('.ant-drawer-close'))
        .first()
        .click();
      await page.getByTestId('connect-ssh-command').waitFor({ state: 'detached' });
    });

    it('renames an instance: the field says what is wrong, the list shows the new name', async () => {
      const row = rowOf(w.pkg.id);
      await row.getByTestId('rename-open').click();
      const input = page.getByTestId('rename-input');
      await input.waitFor();
      await dialogsSettled(page);
      await input.fill('');
      expect(await page.getByTestId('rename-error').textContent()).toBe('请输入实例名称');
      expect(await page.getByTestId('rename-confirm').isDisabled()).toBe(true);
      // Illegal characters are dropped as typed (the create rules).
      await input.pressSequentially(`新的 box_${label}!`);
      expect(await input.inputValue()).toBe(`box${label}`);
      await page.getByTestId('rename-confirm').click();
      await toast(page, '实例已重命名');
      await expect.poll(() => row.getByTestId('instance-name').textContent()).toBe(`box${label}`);
      w.pkg = { ...w.pkg, name: `box${label}` };
    });

    it('release of a package says 剩余时长不退款 and points out a mistyped name; a just-released row stays with 释放于', async () => {
      const row = rowOf(w.pkg.id);
      await row.getByRole('button', { name: '释放' }).click();
      const confirm = page.getByTestId('release-confirm');
      await confirm.waitFor();
      await dialogsSettled(page);
      const prepaid = (await page.getByTestId('release-prepaid').textContent()) ?? '';
      expect(prepaid).toContain('包日');
      expect(prepaid).toContain('剩余时长不退款');
      await page.getByTestId('release-name').fill('box');
      expect(await page.getByTestId('release-name-mismatch').textContent()).toBe(
        `名称不一致，请输入「${w.pkg.name}」`,
      );
      expect(await confirm.isDisabled()).toBe(true);
      await shot(page, `instance-details-release-${label}`, false);
      await page.getByTestId('release-name').fill(w.pkg.name);
      expect(await page.getByTestId('release-name-mismatch').count()).toBe(0);
      await confirm.click();
      await confirm.waitFor({ state: 'detached' });
      await toast(page, '实例已释放');
      await row.getByTestId('instance-status').filter({ hasText: '已释放' }).waitFor({ timeout: 15_000 });
      await expect
        .poll(() => row.getByTestId('instance-time-main').textContent(), { timeout: 20_000 })
        .toMatch(/^释放于 /);
    });
  });
}
