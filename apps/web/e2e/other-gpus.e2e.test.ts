import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  DESKTOP,
  fundUser,
  launchBrowser,
  registerUser,
  rentInstance,
  seedSession,
  siteUrl,
  userCall,
} from './helpers';
import { instanceUntil, releaseAll } from './instance-helpers';

// Power on after its GPU was taken while it was off (issue 30): the console asks before moving the
// instance to another idle GPU of its host, then it runs there. The H100 demo host has two idle
// GPUs and no other browser test rents on it, so the taker surely gets the one this instance left.

const HOST = 'gd-b-h100-01';
let browser: Browser;
let context: BrowserContext;
const cleanup: Array<{ token: string; id: number }> = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseAll(cleanup);
  await context?.close();
  await browser?.close();
});

describe('console: power on on other GPUs', () => {
  it('offers the other idle GPU when its own was taken, and runs there once agreed', async () => {
    const owner = await registerUser();
    await fundUser(owner.accessToken, 500);
    const inst = await rentInstance(owner.accessToken, { name: 'moves', host: HOST });
    cleanup.push({ token: owner.accessToken, id: inst.id });
    expect(inst.status).toBe('RUNNING');
    await userCall(owner.accessToken, `/gpu/instance/power_off?instance_uuid=${inst.id}`, {});
    expect((await instanceUntil(owner.accessToken, inst.id, 'STOPPED')).status).toBe('STOPPED');

    const taker = await registerUser();
    await fundUser(taker.accessToken, 500);
    const took = await rentInstance(taker.accessToken, { name: 'takes', host: HOST });
    cleanup.push({ token: taker.accessToken, id: took.id });
    expect(took.status).toBe('RUNNING');

    context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { token: owner.accessToken, user: owner.user });
    const page: Page = await context.newPage();
    await page.goto(siteUrl('localhost', '/console/instance'));
    const row = page.getByTestId(`instance-row-${inst.id}`);
    await row.waitFor();
    await row.getByRole('button', { name: '开机' }).click();
    // The usual confirmation first; the question about other GPUs follows it at once.
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确认开机' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: '开机', exact: true }).click();
    const dialog = page.locator('.ant-modal-confirm').filter({ hasText: '使用其他空闲GPU开机？' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('系统盘与数据盘（/root/data）的内容都会保留');
    await page.screenshot({ path: path.join(ARTIFACTS, 'other-gpus-confirm-1440.png') });
    await dialog.getByRole('button', { name: '使用其他GPU开机' }).click();
    await row.getByTestId('instance-status').filter({ hasText: '运行中' }).waitFor({ timeout: 30_000 });
    const after = await instanceUntil(owner.accessToken, inst.id, 'RUNNING');
    expect(after.status).toBe('RUNNING');
    // Recreated on the other GPU: a new container, the same instance.
    expect(after.containerId).not.toBe(inst.containerId);
  }, 120_000);
});
