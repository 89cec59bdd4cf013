import { SSH_KEYS_PER_USER, type SshKey } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { sshKeyPair } from './ssh-keys.test-helpers.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const add = (headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/user/ssh-keys', headers, payload: payload as object });
const list = async (headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: '/api/user/ssh-keys', headers })).json().data as SshKey[];
const remove = (headers: Headers, id: number | string) =>
  t.app.inject({ method: 'DELETE', url: `/api/user/ssh-keys/${id}`, headers });

describe('SSH public keys API', () => {
  it('adds ed25519, ECDSA and RSA keys with their OpenSSH fingerprints, lists and deletes them', async () => {
    const { headers } = await t.createUser();
    const ed = sshKeyPair('ed25519');
    const ec = sshKeyPair('ecdsa');
    const rsa = sshKeyPair('rsa', { bits: 2048 });
    const res = await add(headers, { name: ' 笔记本 ', publicKey: `  ${ed.publicKey}\n` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: '笔记本',
      type: 'ssh-ed25519',
      bits: 256,
      fingerprint: ed.fingerprint,
      comment: 'dev@laptop',
    });
    expect(ed.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect((await add(headers, { name: 'ec', publicKey: ec.publicKey })).json().data).toMatchObject({
      type: 'ecdsa-sha2-nistp256',
      fingerprint: ec.fingerprint,
    });
    expect((await add(headers, { name: 'rsa', publicKey: rsa.publicKey })).json().data).toMatchObject({
      type: 'ssh-rsa',
      bits: 2048,
    });
    const keys = await list(headers);
    expect(keys.map((k) => k.name)).toEqual(['笔记本', 'ec', 'rsa']);
    const first = keys[0] as SshKey;
    expect((await remove(headers, first.id)).statusCode).toBe(200);
    expect((await list(headers)).map((k) => k.name)).toEqual(['ec', 'rsa']);
    expect((await remove(headers, first.id)).statusCode).toBe(404);
  });

  it('refuses private keys, garbage, short RSA, unknown types, option prefixes and several keys, naming the field', async () => {
    const { headers } = await t.createUser();
    const ed = sshKeyPair('ed25519');
    const blob = ed.publicKey.split(' ')[1] as string;
    const cases: [unknown, number, string][] = [
      [{ name: 'k', publicKey: ed.privateKey }, 422, '私钥'],
      [
        {
          name: 'k',
          publicKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----',
        },
        422,
        '私钥',
      ],
      [{ name: 'k', publicKey: 'hello world' }, 422, 'publicKey'],
      [{ name: 'k', publicKey: `ssh-ed25519 ${blob.slice(0, 20)}` }, 422, '无法解析'],
      [{ name: 'k', publicKey: `ssh-rsa ${blob}` }, 422, '无法解析'],
      [{ name: 'k', publicKey: sshKeyPair('rsa', { bits: 1024 }).publicKey }, 422, '至少 2048 位'],
      [{ name: 'k', publicKey: `ssh-dss ${blob}` }, 422, '仅支持'],
      [{ name: 'k', publicKey: `command="rm -rf /" ${ed.publicKey}` }, 422, '仅支持'],
      [{ name: 'k', publicKey: `${ed.publicKey}\n${sshKeyPair().publicKey}` }, 422, '一次只能添加一个'],
      [{ name: '', publicKey: ed.publicKey }, 400, '公钥名称'],
      [{ name: 'x'.repeat(33), publicKey: ed.publicKey }, 400, '公钥名称最多32个字符'],
      [{ name: 'k' }, 400, 'SSH公钥'],
      [{ name: 'k', publicKey: 'a'.repeat(9000) }, 400, 'SSH公钥过长'],
      [{ name: 'k', publicKey: 42 }, 400, 'SSH公钥'],
    ];
    for (const [payload, status, words] of cases) {
      const res = await add(headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
      expect(res.json().message).toContain(words);
    }
    expect(await list(headers)).toEqual([]);
  });

  it('a key already added (same fingerprint, whatever the comment) is 409; another user may add it', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const ed = sshKeyPair('ed25519', { comment: 'one' });
    expect((await add(a.headers, { name: 'a', publicKey: ed.publicKey })).statusCode).toBe(200);
    const again = await add(a.headers, { name: 'b', publicKey: ed.publicKey.replace(/ one$/, ' two') });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('已添加过');
    expect((await add(b.headers, { name: 'a', publicKey: ed.publicKey })).statusCode).toBe(200);
    expect(await list(a.headers)).toHaveLength(1);
  });

  it(`keeps at most ${SSH_KEYS_PER_USER} keys per user`, async () => {
    const { headers } = await t.createUser();
    for (let i = 0; i < SSH_KEYS_PER_USER; i++) {
      expect((await add(headers, { name: `k${i}`, publicKey: sshKeyPair().publicKey })).statusCode).toBe(200);
    }
    const over = await add(headers, { name: 'over', publicKey: sshKeyPair().publicKey });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain(`最多添加 ${SSH_KEYS_PER_USER} 个`);
    expect(await list(headers)).toHaveLength(SSH_KEYS_PER_USER);
  });

  it("another user's key is 404 and stays; lists never show another user's keys", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const key = (await add(owner.headers, { name: 'mine', publicKey: sshKeyPair().publicKey })).json()
      .data as SshKey;
    const res = await remove(other.headers, key.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('SSH公钥不存在');
    expect(await list(other.headers)).toEqual([]);
    expect((await list(owner.headers)).map((k) => k.id)).toEqual([key.id]);
    expect((await remove(owner.headers, 'abc')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/ssh-keys' })).statusCode).toBe(401);
  });
});
