import path from 'node:path';
import type { Instance, MarketList } from '@gpu/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import { DESKTOP, fundUser, launchBrowser, MOBILE, registerUser, settledInstance, userCall } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// Extra service ports (issue 30): chosen on the order page, each shown as its link in the 连接
// drawer, edited while powered off.

const HOST = 'nm-a-l40s-01';
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The order page of the L40S host, pay-as-you-go, with its image chosen. */
async function orderPage(page: Page, token: string) {
  const market = await userCall<MarketList>(token, '/gpu/market?size=48');
  const item = market.list.find((i) => i.hostName === HOST);
  if (!item) throw new Error(`${HOST} is not in the market`);
  await page.goto(
    page.url().replace(/\/console.*$/, `/subscribe?skuGpuId=${item.skuGpuId}&billingType=hourly`),
  );
  await page.getByTestId('quote-state').and(page.locator('[data-state="verified"]')).first().waitFor({
    state: 'attached',
  });
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
}

/** A screenshot of one part of the page (a full-page shot starts at the top, far from it). */
async function fieldShot(page: Page, testId: string, name: string) {
  const part = page.getByTestId(testId);
  await part.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await part.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

const statusOf = async (token: string, id: number) =>
  (await userCall<{ list: Instance[] }>(token, '/gpu/instances?size=100')).list.find((i) => i.id === id)
    ?.status;

/** Types one port into a 额外端口 field and confirms it with Enter. */
async function typePort(page: Page, testId: string, port: string) {
  const input = page.getByTestId(testId).locator('input');
  await input.click();
  await input.fill(port);
  await input.press('Enter');
  await page.keyboard.press('Escape');
}

describe('extra service ports (desktop)', () => {
  it('orders an instance with port 6006, sees its link in the 连接 drawer, and edits the list while off', async () => {
    const session = await registerUser();
    await fundUser(session.accessToken, 200);
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/instance');
    await orderPage(page, session.accessToken);

    // SSH's port is refused with the shared rule's words and blocks the order; 6006 is fine.
    await typePort(page, 'extra-ports', '22');
    await page.getByTestId('extra-ports-message').filter({ hasText: '不能是 22' }).waitFor();
    await page.getByTestId('extra-ports').locator('.ant-select-selection-item-remove').first().click();
    await typePort(page, 'extra-ports', '6006');
    await page.getByTestId('extra-ports-message').filter({ hasText: '最多再开放 3 个' }).waitFor();
    await page.getByTestId('instance-name').fill('ports-e2e');
    await fieldShot(page, 'section-extra-ports', 'extra-ports-order');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/gpu/instance/create'));
    await page.getByTestId('create-button').click();
    const placed = ((await (await created).json()) as { data: Instance }).data;
    expect(placed.extraPorts.map((p) => p.containerPort)).toEqual([6006]);
    const inst = await settledInstance<Instance>(session.accessToken, placed.id, 30_000);
    expect(inst.status).toBe('RUNNING');
    const port = inst.extraPorts[0];
    expect(port?.url).toMatch(new RegExp(`^http://[^/]+:${port?.hostPort}$`));

    const list = await visit(context, '/console/instance');
    await list.getByTestId(`instance-row-${inst.id}`).getByTestId('connect-open').click();
    const section = list.getByTestId('connect-extra-ports');
    await section.waitFor();
    const link = section.getByTestId('extra-port-link');
    expect(await link.getAttribute('href')).toBe(port?.url);
    expect(await section.getByTestId('extra-port-6006').textContent()).toContain('TensorBoard');
    expect(await section.getByTestId('extra-ports-edit').count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await list.mouse.move(0, 0);
    await shot(list, 'extra-ports-connect-drawer', false);

    // Powered off: the editor adds 7860; 6006 keeps its host port.
    await userCall(session.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
    const deadline = Date.now() + 30_000;
    while ((await statusOf(session.accessToken, inst.id)) !== 'STOPPED') {
      if (Date.now() > deadline) throw new Error('the instance did not power off');
      await new Promise((r) => setTimeout(r, 200));
    }
    const again = await visit(context, '/console/instance');
    await again.getByTestId(`instance-row-${inst.id}`).getByTestId('connect-open').click();
    const editor = again.getByTestId('connect-extra-ports');
    await editor.getByTestId('extra-ports-edit').click();
    await typePort(again, 'extra-ports-editor', '7860');
    await editor.getByTestId('extra-ports-save').click();
    await toast(again, '端口已保存');
    await editor.getByTestId('extra-port-7860').waitFor();
    const saved = (
      await userCall<{ list: Instance[] }>(session.accessToken, '/gpu/instances?size=100')
    ).list.find((i) => i.id === inst.id);
    expect(saved?.extraPorts.map((p) => p.containerPort)).toEqual([6006, 7860]);
    expect(saved?.extraPorts[0]?.hostPort).toBe(port?.hostPort);
    await again.mouse.move(0, 0);
    await shot(again, 'extra-ports-editor', false);
    await fieldShot(again, 'connect-extra-ports', 'extra-ports-editor-section');
    await userCall(session.accessToken, `/gpu/instance/release?instance_uuid=${inst.id}`, {});
    await context.close();
  });
});

describe('extra service ports (390 px)', () => {
  it('the order page field fits the phone', async () => {
    const session = await registerUser();
    await fundUser(session.accessToken, 200);
    const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/instance');
    await orderPage(page, session.accessToken);
    await typePort(page, 'extra-ports', '7860');
    await typePort(page, 'extra-ports', '8000');
    await expectNoSidewaysScroll(page);
    await fieldShot(page, 'section-extra-ports', 'extra-ports-order-390');
    await context.close();
  });
});
