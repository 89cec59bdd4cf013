import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, DESKTOP, launchBrowser, MOBILE, registerUser } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// /blockchain (SPEC.md §7): submit a payment made on chain; the simulated chain's page confirms it.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('blockchain orders (desktop)', () => {
  it('submits an order, confirms it on the simulated chain and credits the balance once', async () => {
    const session = await registerUser();
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/blockchain');
    expect(await page.title()).toMatch(/^区块链 - /);

    // Bad input names the rule.
    await page.getByTestId('blockchain-amount').fill('0.5');
    await page.getByTestId('blockchain-tx').fill('0x1234');
    await page.getByTestId('blockchain-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '金额必须在1-100000之间' }).waitFor();
    await page.locator('.ant-form-item-explain-error', { hasText: '请输入有效的交易哈希' }).waitFor();

    const hash = `0x${randomBytes(32).toString('hex')}`;
    await page.getByTestId('blockchain-amount').fill('100');
    await page.getByTestId('blockchain-tx').fill(hash);
    await page.getByTestId('blockchain-submit').click();
    await toast(page, '订单已提交，等待链上确认');
    const status = page.getByTestId('blockchain-status').first();
    await status.filter({ hasText: '待确认' }).waitFor();
    await shot(page, 'blockchain-pending-desktop');

    const [chain] = await Promise.all([
      context.waitForEvent('page'),
      page
        .getByRole('link', { name: /模拟确认/ })
        .first()
        .click(),
    ]);
    await chain.locator('h1', { hasText: '模拟区块链确认' }).waitFor();
    await chain.getByRole('button', { name: '确认交易' }).click();
    await chain.locator('h1', { hasText: '交易已确认' }).waitFor();
    await chain.close();

    await page
      .getByRole('button', { name: /刷新状态/ })
      .first()
      .click();
    await status.filter({ hasText: '已确认' }).waitFor();
    await page.getByTestId('blockchain-stats').filter({ hasText: '¥720.00' }).waitFor();
    const balance = await api<{ available: number }>('/user/balance', { token: session.accessToken });
    expect(balance.available).toBe(720);
    const order = await api<{ status: string }>(`/blockchain/orders/tx/${hash}`, {
      token: session.accessToken,
    });
    expect(order.status).toBe('CONFIRMED');
    await shot(page, 'blockchain-desktop');
    await context.close();
  });
});

describe('blockchain orders (390 px)', () => {
  it('fits the phone; screenshot', async () => {
    const session = await registerUser();
    await api('/blockchain/orders', {
      token: session.accessToken,
      body: { chain: 'ETHEREUM', currency: 'USDC', amount: '12.5', txHash: randomBytes(32).toString('hex') },
    });
    const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/blockchain');
    await page.getByTestId('blockchain-status').first().waitFor();
    await expectNoSidewaysScroll(page);
    await shot(page, 'blockchain-mobile');
    await context.close();
  });
});
