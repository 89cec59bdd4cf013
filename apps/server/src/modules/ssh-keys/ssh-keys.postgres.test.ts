import { SSH_KEYS_PER_USER } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { userSshKeys } from './ssh-keys.tables.ts';
import { sshKeyPair } from './ssh-keys.test-helpers.ts';

// Concurrent adds need real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('SSH keys on PostgreSQL under concurrency', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const add = (headers: Record<string, string>, name: string, publicKey: string) =>
    t.app.inject({ method: 'POST', url: '/api/user/ssh-keys', headers, payload: { name, publicKey } });

  it('the same key added 8 times at once: one 200, seven 409, one row', async () => {
    const { user, headers } = await t.createUser();
    const key = sshKeyPair();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => add(headers, `k${i}`, key.publicKey)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await t.db.$count(userSshKeys, eq(userSshKeys.userId, user.id))).toBe(1);
  });

  it(`one place left, 6 different keys at once: one is added, the limit holds at ${SSH_KEYS_PER_USER}`, async () => {
    const { user, headers } = await t.createUser();
    for (let i = 0; i < SSH_KEYS_PER_USER - 1; i++) {
      expect((await add(headers, `k${i}`, sshKeyPair().publicKey)).statusCode).toBe(200);
    }
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => add(headers, `r${i}`, sshKeyPair().publicKey)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(5);
    expect(await t.db.$count(userSshKeys, eq(userSshKeys.userId, user.id))).toBe(SSH_KEYS_PER_USER);
  });
});
