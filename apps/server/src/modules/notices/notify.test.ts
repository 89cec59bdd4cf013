import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { createNoticesRepository } from './index.ts';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe('notify', () => {
  it('writes an event with a dedupe key once per user', async () => {
    const repo = createNoticesRepository({ db: app.db });
    const { user } = await app.createUser();
    const notice = {
      userId: user.id,
      title: '余额不足',
      body: 'b',
      event: 'low_balance' as const,
      dedupeKey: 'k1',
    };
    const first = await repo.notify(notice);
    expect(first).toBeTypeOf('number');
    expect(await repo.notify(notice)).toBeNull();
    expect(await repo.notify({ ...notice, dedupeKey: null })).toBeTypeOf('number');
    expect(await repo.notify({ ...notice, dedupeKey: null })).toBeTypeOf('number');
    expect((await repo.notices(user.id, false, 10)).length).toBe(3);
  });
});
