import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
  toast,
  userCall,
} from './helpers';
import { listInstances, moreItem, releaseAll, stableInstance } from './instance-helpers';

// Reset system / change image (issue 30) from the instance row's 更多 menu, on the simulated
// driver: refused while running (the menu says so), a dialog that says what is lost and kept,
// then 重置中 → 已关机 with a new container (and image), at 1440 px (table) and 390 px (cards).

const HOST = 'nm-a-l40s-01';
const NEW_IMAGE = 'registry.gpu.local/tensorflow:2.16.1-py3.11-cuda12.3';

let browser: Browser;
let context: BrowserContext | undefined;
/** What this file rents, released at the end: the L40S host is shared by other browser tests. */
const rented: Array<{ token: string; id: number }> = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseAll(rented);
  await context?.close();
  await browser?.close();
});

/** The instance once its job is done (no longer in a transitional state). */
const stable = (token: string, id: number) =>
  stableInstance(token, id, ['CREATING', 'STOPPING', 'STARTING', 'RELEASING', 'RESETTING']);

describe('console: reset system / change image from 更多', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`is refused while running, then resets a powered-off instance keeping its data disk (${label} px)`, async () => {
      const session = await registerUser();
      await fundUser(session.accessToken, 500);
      const inst = await rentInstance(session.accessToken, { name: `reset-${label}`, host: HOST });
      rented.push({ token: session.accessToken, id: inst.id });
      expect(inst).toMatchObject({ status: 'RUNNING', resettable: true, dataMountPath: '/root/data' });

      context = await browser.newContext({ viewport });
      await seedSession(context, { token: session.accessToken, user: session.user });
      const page = await context.newPage();
      await page.goto(siteUrl('localhost', '/console/instance'));
      const row = page.getByTestId(`instance-${label === '390' ? 'card' : 'row'}-${inst.id}`);
      await row.waitFor();

      // Running: the items are there, disabled, and say why.
      const refused = await moreItem(page, row, /重置系统（需先关机）/);
      expect(await refused.getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');

      await userCall(session.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
      const off = await stable(session.accessToken, inst.id);
      expect(off.status).toBe('STOPPED');
      await page.reload(); // not the 15 s poll of a list with nothing in transition
      await row.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor({ timeout: 20_000 });

      const change = label === '1440';
      await (await moreItem(page, row, change ? /^更换镜像$/ : /^重置系统$/)).click();
      const dialog = page.getByTestId('reset-dialog');
      await dialog.waitFor();
      await dialogsSettled(page);
      expect(await page.getByTestId('reset-lost').textContent()).toContain('系统盘');
      expect(await page.getByTestId('reset-kept').textContent()).toContain('/root/data');
      const confirm = page.getByTestId('reset-confirm');
      expect(await confirm.isDisabled()).toBe(true);
      if (change) {
        await page.getByTestId('reset-image').click();
        const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
          hasText: NEW_IMAGE,
        });
        await option.first().waitFor();
        await page.waitForFunction(() => !document.querySelector('.ant-select-dropdown[class*="slide-up-"]'));
        await option.first().click();
      }
      await page.getByTestId('reset-understood').click();
      expect(await confirm.isDisabled()).toBe(false);
      // The shot once the select's list and the checkbox's tick have finished moving.
      await page.waitForFunction(
        () =>
          !document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)') &&
          document.querySelector('.ant-checkbox-checked') !== null,
      );
      await page.waitForTimeout(300);
      await shot(page, `reset-dialog-${label}`);
      await confirm.click();
      await confirm.waitFor({ state: 'detached' });

      await toast(page, change ? '镜像已更换' : '系统已重置', 20_000);
      await row.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor();
      const after = (await listInstances(session.accessToken)).find((i) => i.id === inst.id);
      expect(after?.status).toBe('STOPPED');
      expect(after?.containerId).not.toBe(off.containerId);
      expect(after?.image).toBe(change ? NEW_IMAGE : inst.image);
      await shot(page, `reset-done-${label}`);

      // Powered on again, the 连接 drawer tells where the data disk is.
      await userCall(session.accessToken, `/gpu/instance/power_on?instance_uuid=${inst.id}`, {});
      expect((await stable(session.accessToken, inst.id)).status).toBe('RUNNING');
      await page.reload();
      await row.getByTestId('instance-status').filter({ hasText: '运行中' }).waitFor({ timeout: 20_000 });
      await row.getByRole('button', { name: '连接' }).click();
      await page.getByTestId('connect-data-disk').waitFor();
      await dialogsSettled(page);
      expect(await page.getByTestId('connect-data-path').textContent()).toContain('/root/data');
      await shot(page, `reset-connect-data-disk-${label}`);
      await context.close();
      context = undefined;
    }, 90_000);
  }
});
