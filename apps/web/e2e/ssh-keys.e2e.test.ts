import { createHash, generateKeyPairSync } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, fundUser, launchBrowser, MOBILE, registerUser, rentInstance, userCall } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// 账号安全 → SSH公钥 (issue 30): add a key, see its fingerprint, an instance gets it (连接 drawer),
// the password switch, delete the key.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** An ed25519 key as `ssh-keygen` writes it: the OpenSSH line and its SHA256 fingerprint. */
function ed25519Key(comment: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return {
    line: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

describe('SSH public keys (desktop)', () => {
  it('adds a key (its fingerprint shows), an instance gets it, password sign-in can be switched off, the key is deleted', async () => {
    const session = await registerUser();
    await fundUser(session.accessToken, 200);
    const key = ed25519Key('e2e@laptop');
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    const card = page.getByTestId('ssh-keys');
    await card.getByText('还没有SSH公钥').waitFor();

    // A private key is refused with the server's words; nothing is added.
    await page.getByTestId('ssh-key-add').click();
    await page.getByTestId('ssh-key-name').fill('笔记本');
    await page.getByTestId('ssh-key-public').fill(key.privatePem);
    await page.locator('#ssh-key-submit').click();
    await toast(page, '这是私钥');
    // An empty name: the form says so before anything is sent.
    await page.getByTestId('ssh-key-name').fill('');
    await page.getByTestId('ssh-key-public').fill(key.line);
    await page.locator('#ssh-key-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '请填写公钥名称' }).waitFor();
    await page.getByTestId('ssh-key-name').fill('笔记本');
    await page.locator('#ssh-key-submit').click();
    await toast(page, '已添加');
    const row = card.locator('tr.ant-table-row', { hasText: '笔记本' });
    await row.waitFor();
    expect(await row.textContent()).toContain(key.fingerprint);
    expect(await row.textContent()).toContain('ssh-ed25519');
    await page.mouse.move(0, 0);
    await shot(page, 'ssh-keys-desktop');

    // An instance made now gets the key; the 连接 drawer says how many and holds the switch.
    const inst = await rentInstance(session.accessToken, { name: 'ssh-keys-e2e' });
    expect(inst.status).toBe('RUNNING');
    expect(inst.sshPasswordAuth).toBe(true);
    const list = await visit(context, '/console/instance');
    await list.getByTestId(`instance-row-${inst.id}`).getByTestId('connect-open').click();
    const drawer = list.getByTestId('connect-ssh-access');
    await drawer.waitFor();
    await drawer.getByText('账号中的 1 个SSH公钥').waitFor();
    const sw = drawer.getByTestId('connect-password-auth');
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    await sw.click();
    await toast(list, '已关闭密码登录，下次开机时生效');
    expect(await sw.getAttribute('aria-checked')).toBe('false');
    expect(await drawer.textContent()).toContain('仅可使用SSH公钥登录');
    await list.mouse.move(0, 0);
    await shot(list, 'ssh-keys-connect-drawer', false);
    const after = await userCall<{ list: { id: number; sshPasswordAuth: boolean }[] }>(
      session.accessToken,
      '/gpu/instances?size=100',
    );
    expect(after.list.find((i) => i.id === inst.id)?.sshPasswordAuth).toBe(false);

    // Deleted after a confirmation.
    await page.bringToFront();
    await row.getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-popconfirm', { hasText: '删除公钥“笔记本”？' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: '删除' }).click();
    await toast(page, '已删除');
    await card.getByText('还没有SSH公钥').waitFor();
    expect(await userCall<unknown[]>(session.accessToken, '/user/ssh-keys')).toEqual([]);
    await context.close();
  });
});

describe('SSH public keys (390 px)', () => {
  it('lists keys as lines with their fingerprints and fits the phone', async () => {
    const session = await registerUser();
    const key = ed25519Key('phone@x');
    await userCall(session.accessToken, '/user/ssh-keys', { name: '手机测试', publicKey: key.line });
    const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    const item = page.getByTestId('ssh-keys').locator('li', { hasText: '手机测试' });
    await item.waitFor();
    expect(await item.textContent()).toContain(key.fingerprint);
    await expectNoSidewaysScroll(page);
    await page.getByTestId('ssh-keys').scrollIntoViewIfNeeded();
    await shot(page, 'ssh-keys-390');
    await context.close();
  });
});
