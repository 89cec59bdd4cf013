import { ACCESS_TOKEN_PATTERN } from '@gpu/shared/access-tokens';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickSettled, DESKTOP, launchBrowser, registerUser, siteUrl, userCall } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// 账号安全 → API令牌 and /console/api-docs (issue 32): a token made on the screen calls the API
// until it is revoked there, at once; the API's documentation shows in the console.

const PHONE = { width: 375, height: 812 } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** GET /api/user/balance as a script would: only the token, no browser session. */
const balanceWith = (token: string) =>
  fetch(siteUrl('localhost', '/api/user/balance'), {
    headers: { authorization: `Bearer ${token}`, 'x-tenant-host': 'localhost' },
  });

/** The 账号安全 page, reloaded until the card's row for `name` says something other than 从未使用. */
async function lastUseShows(page: Page, name: string) {
  for (let i = 0; i < 10; i++) {
    await page.reload();
    const row = page.getByTestId('access-tokens').locator('tr.ant-table-row', { hasText: name });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    if (!text.includes('从未使用')) return text;
    await page.waitForTimeout(500);
  }
  throw new Error('the last use never showed');
}

describe('API tokens (desktop)', () => {
  it('creates a token shown once, which calls the API until it is revoked; the API docs show the instances group', async () => {
    const session = await registerUser();
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    const card = page.getByTestId('access-tokens');
    await card.getByText('还没有API令牌').waitFor();

    await page.getByTestId('access-token-add').click();
    // The form says what is missing before anything is sent.
    await clickSettled(page, page.locator('#access-token-submit'));
    await page.locator('.ant-form-item-explain-error', { hasText: '请填写令牌名称' }).waitFor();
    await page.getByTestId('access-token-name').fill('余额脚本');
    await page.mouse.move(0, 0);
    await shot(page, 'access-tokens-create-desktop', false);
    await clickSettled(page, page.locator('#access-token-submit'));

    const created = page.getByTestId('access-token-created');
    await created.waitFor();
    const token = ((await page.getByTestId('access-token-value').textContent()) ?? '').trim();
    expect(token).toMatch(ACCESS_TOKEN_PATTERN);
    expect(await created.textContent()).toContain(
      `curl -H "Authorization: Bearer ${token}" ${siteUrl('localhost', '')}/api/user/balance`,
    );
    await shot(page, 'access-tokens-created-desktop', false);
    await page.getByTestId('access-token-done').click();
    await created.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);

    const row = card.locator('tr.ant-table-row', { hasText: '余额脚本' });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${token.slice(0, 8)}…`);
    expect(await row.textContent()).toContain('只读');
    expect(await row.textContent()).toContain('从未使用');

    // A script with the token reads the balance; the list then shows when and from where.
    const before = await balanceWith(token);
    expect(before.status).toBe(200);
    expect(((await before.json()) as { success: boolean }).success).toBe(true);
    expect(await lastUseShows(page, '余额脚本')).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await page.mouse.move(0, 0);
    await shot(page, 'access-tokens-desktop');

    // Revoked after a confirmation that says scripts stop at once; refused from then on.
    const listed = card.locator('tr.ant-table-row', { hasText: '余额脚本' });
    await listed.getByRole('button', { name: '撤销' }).click();
    const confirm = page.locator('.ant-popconfirm', { hasText: '撤销令牌“余额脚本”？' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('马上无法调用 API');
    await confirm.getByRole('button', { name: '撤销' }).click();
    await toast(page, '撤销');
    await card.getByText('还没有API令牌').waitFor();
    expect((await balanceWith(token)).status).toBe(401);

    // The API 文档 link leads to the documentation, read with the browser's session.
    await page.getByTestId('access-token-docs').click();
    await page.waitForURL('**/console/api-docs');
    const instances = page.getByTestId('api-group-instances');
    await instances.waitFor();
    // The search keeps the matching routes: only instance routes for /api/gpu/instance.
    await page.getByPlaceholder('搜索路径或说明').fill('/api/gpu/instance');
    await page.getByTestId('api-group-auth').waitFor({ state: 'detached' });
    await instances.getByTestId('api-op-POST /api/gpu/instance/create').click();
    const create = instances.getByTestId('api-op-detail-POST /api/gpu/instance/create');
    await create.waitFor();
    // What the document says of the route: the scope a token needs, examples, errors with codes.
    expect(await create.textContent()).toContain('所需权限：实例管理');
    expect(await create.getByTestId('api-op-request').textContent()).toContain('"machineId"');
    expect(await create.getByTestId('api-op-errors').textContent()).toContain('auth.token_scope');
    await page.mouse.move(0, 0);
    await shot(page, 'api-docs-desktop', false);
    await context.close();
  });
});

describe('API tokens and docs (375 px)', () => {
  it('lists tokens as blocks and shows the docs without sideways scrolling', async () => {
    const session = await registerUser();
    await userCall(session.accessToken, '/user/access-tokens', {
      name: '手机上的令牌',
      scopes: ['read', 'instances', 'billing'],
      expiresInDays: 30,
    });
    const context = await openContext(browser, PHONE, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    const item = page.getByTestId('access-tokens').locator('li', { hasText: '手机上的令牌' });
    await item.waitFor();
    expect(await item.textContent()).toContain('实例管理');
    expect(await item.textContent()).toContain('从未使用');
    await expectNoSidewaysScroll(page);
    await page.getByTestId('access-tokens').scrollIntoViewIfNeeded();
    await shot(page, 'access-tokens-375');
    await page.getByTestId('access-token-add').click();
    await page.getByTestId('access-token-form').waitFor();
    await expectNoSidewaysScroll(page);
    await shot(page, 'access-tokens-create-375', false);

    const docs = await visit(context, '/console/api-docs');
    const instances = docs.getByTestId('api-group-instances');
    await instances.waitFor();
    await docs.getByPlaceholder('搜索路径或说明').fill('/api/gpu/instance');
    await docs.getByTestId('api-group-auth').waitFor({ state: 'detached' });
    await instances.locator('.ant-collapse-header').first().click();
    await instances.locator('[data-testid^="api-op-detail-"]').first().waitFor();
    await expectNoSidewaysScroll(docs);
    await shot(docs, 'api-docs-375', false);
    await context.close();
  });
});
