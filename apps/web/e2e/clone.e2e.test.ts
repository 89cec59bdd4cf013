import type { Instance } from '@gpu/shared';
import { formatYuan } from '@gpu/shared/money';
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

// Clone (克隆实例, issue 30) from the instance row's 更多 menu, on the simulated driver: refused
// while running (the menu says so), a dialog with the new instance's name, billing mode, GPU
// count and price, then the clone 创建中 → 运行中 beside its source, at 1440 px and 390 px.

const HOST = 'bj-a-a100-01';

let browser: Browser;
let context: BrowserContext | undefined;
/** What this file rents, released at the end: the A100 host is counted by another browser test. */
const rented: Array<{ token: string; id: number }> = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseAll(rented);
  await context?.close();
  await browser?.close();
});

/** The instance `find` picks once its job is done (no longer in a transitional state). */
const stable = (token: string, find: (i: Instance) => boolean) =>
  stableInstance(token, find, ['CREATING', 'STOPPING', 'STARTING', 'RELEASING', 'RESETTING']);

describe('console: clone an instance from 更多', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`is refused while running, then clones a powered-off instance into a new running one (${label} px)`, async () => {
      const session = await registerUser();
      const token = session.accessToken;
      await fundUser(token, 2000);
      const inst = await rentInstance(token, { name: `clone-src-${label}`, host: HOST });
      rented.push({ token, id: inst.id });
      expect(inst).toMatchObject({ status: 'RUNNING', cloneable: true });

      context = await browser.newContext({ viewport });
      await seedSession(context, { token, user: session.user });
      const page = await context.newPage();
      await page.goto(siteUrl('localhost', '/console/instance'));
      const rowOf = (id: number) => page.getByTestId(`instance-${label === '390' ? 'card' : 'row'}-${id}`);
      const row = rowOf(inst.id);
      await row.waitFor();

      // Running: the item is there, disabled, and says why.
      const refused = await moreItem(page, row, /克隆实例（需先关机）/);
      expect(await refused.getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');

      await userCall(token, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
      const off = await stable(token, (i) => i.id === inst.id);
      expect(off.status).toBe('STOPPED');
      await page.reload();
      await row.getByTestId('instance-status').filter({ hasText: '已关机' }).waitFor({ timeout: 20_000 });

      await (await moreItem(page, row, /^克隆实例$/)).click();
      await page.getByTestId('clone-dialog').waitFor();
      await dialogsSettled(page);
      expect(await page.getByTestId('clone-intro').textContent()).toContain('/root/data');
      const name = `clone-of-${label}`;
      await page.getByTestId('clone-name').fill(name);
      // A package: the price is the server's for a day of one A100, as the subscribe page asks it.
      await page.getByTestId('clone-billing').getByText('包日').click();
      const payable = page.getByTestId('clone-payable');
      await payable.waitFor();
      const quote = await userCall<{ payableAmount: number }>(token, '/v2/package-billing/calculate-price', {
        machineId: inst.machineId,
        billingType: 'daily',
        duration: 1,
        gpuAmount: 1,
      });
      await page.waitForFunction(
        (want) => document.querySelector('[data-testid="clone-payable"]')?.textContent?.includes(want),
        formatYuan(quote.payableAmount, { group: true }),
      );
      await page.waitForTimeout(300);
      await shot(page, `clone-dialog-${label}`);
      const confirm = page.getByTestId('clone-confirm');
      expect(await confirm.isDisabled()).toBe(false);
      await confirm.click();
      await confirm.waitFor({ state: 'detached' });
      await toast(page, '正在克隆实例');

      // The clone: bought as a new daily instance, running once its copy is made.
      const made = await stable(token, (i) => i.name === name);
      rented.push({ token, id: made.id });
      expect(made).toMatchObject({ status: 'RUNNING', billingType: 'daily', gpuCount: 1 });
      expect(made.charged).toBeCloseTo(quote.payableAmount, 2);
      await toast(page, '容器创建成功', 20_000);
      await rowOf(made.id)
        .getByTestId('instance-status')
        .filter({ hasText: '运行中' })
        .waitFor({ timeout: 20_000 });
      // The source is as it was.
      expect((await listInstances(token)).find((i) => i.id === inst.id)).toMatchObject({
        status: 'STOPPED',
        containerId: off.containerId,
      });
      await page.waitForTimeout(300);
      await shot(page, `clone-done-${label}`);

      // Both released, as customers would.
      for (const id of [made.id, inst.id])
        await userCall(token, `/gpu/instance/release?instance_uuid=${id}`, {});
      for (const id of [made.id, inst.id])
        expect((await stable(token, (i) => i.id === id)).status).toBe('RELEASED');
      await context.close();
      context = undefined;
    }, 90_000);
  }
});
