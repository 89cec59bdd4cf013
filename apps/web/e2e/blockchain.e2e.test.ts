import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, chooseOption, DESKTOP, launchBrowser, MOBILE, registerUser } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// /blockchain (SPEC.md §7): submit a payment made on chain; the simulated chain's page confirms it.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

// The demo addresses the server shows outside production when none is configured.
const DEMO = {
  TRON: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  ETHEREUM: '0x000000000000000000000000000000000000dEaD',
};

/**
 * The receiving panel of `chain`: address, copy (the clipboard then holds it), QR, the wrong-network
 * warning, minimum and confirmations, the demo flag; all inside the viewport.
 */
async function expectReceivePanel(
  page: Page,
  chain: 'TRON' | 'ETHEREUM',
  viewport: { width: number; height: number },
) {
  const panel = page.locator(`[data-testid="receive-panel"][data-chain="${chain}"]`);
  await panel.waitFor();
  const label = chain === 'TRON' ? 'TRON (TRC-20)' : 'Ethereum (ERC-20)';
  expect(await panel.getByTestId('receive-address').textContent()).toBe(DEMO[chain]);
  expect(await panel.getByText(`${label} 收款地址`, { exact: true }).count()).toBe(1);
  expect(await panel.getByTestId('receive-network-warning').textContent()).toContain(
    `仅支持通过 ${label} 网络转入 USDT / USDC`,
  );
  expect(await panel.getByTestId('receive-min').textContent()).toBe('1 USDT / USDC（约 ¥7.20）');
  expect(await panel.getByTestId('receive-confirmations').textContent()).toBe(
    `${chain === 'TRON' ? 19 : 12} 个区块确认后自动到账`,
  );
  expect(await panel.getByTestId('receive-demo').textContent()).toContain('演示地址');
  const qr = panel.getByTestId('receive-qr');
  expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
  const qrBox = await qr.boundingBox();
  expect(qrBox && qrBox.width >= 140 && qrBox.x >= 0 && qrBox.x + qrBox.width <= viewport.width).toBe(true);
  for (const id of ['receive-address', 'receive-copy']) {
    const box = await panel.getByTestId(id).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= viewport.width, id).toBe(true);
  }
  await panel.getByTestId('receive-copy').click();
  await toast(page, '地址已复制');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DEMO[chain]);
}

describe('blockchain orders (desktop)', () => {
  it('shows where to pay on each network: address, copy, QR, warning, minimum, confirmations', async () => {
    const session = await registerUser();
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await visit(context, '/blockchain');
    await expectReceivePanel(page, 'TRON', DESKTOP);
    // QR beside the address on a wide screen.
    const qr = await page.getByTestId('receive-qr').boundingBox();
    const address = await page.getByTestId('receive-address').boundingBox();
    expect(qr && address && address.x > qr.x + qr.width).toBe(true);
    await shot(page, 'blockchain-receive-tron-desktop');
    await chooseOption(
      page,
      page.getByTestId('blockchain-form').locator('.ant-select').first(),
      'Ethereum (ERC-20)',
    );
    await expectReceivePanel(page, 'ETHEREUM', DESKTOP);
    await shot(page, 'blockchain-receive-eth-desktop');
    await context.close();
  });

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
    await api('/blockchain/orders', {
      token: session.accessToken,
      body: { chain: 'TRON', currency: 'USDT', amount: '150', txHash: randomBytes(32).toString('hex') },
    });
    const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await visit(context, '/blockchain');
    await page.getByTestId('blockchain-status').first().waitFor();
    await expectNoSidewaysScroll(page);
    // Money as ¥1,000.00: 12.5 USDC credits ¥90.00, 150 USDT ¥1,080.00.
    const orders = page.getByTestId('blockchain-orders');
    expect(await orders.getByText('¥90.00', { exact: true }).count()).toBe(1);
    expect(await orders.getByText('¥1,080.00', { exact: true }).count()).toBe(1);
    await expectReceivePanel(page, 'TRON', MOBILE);
    // On a phone the QR sits above the address.
    const qr = await page.getByTestId('receive-qr').boundingBox();
    const address = await page.getByTestId('receive-address').boundingBox();
    expect(qr && address && address.y > qr.y + qr.height).toBe(true);
    await expectNoSidewaysScroll(page);
    await shot(page, 'blockchain-mobile');
    await context.close();
  });
});
