import type { InstanceSample } from '@gpu/shared/monitoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import { createSamplesRepository } from './samples.repository.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const T0 = new Date('2026-11-26T00:00:00Z');
const sample = (instanceId: number, seconds: number, gpuUtil: number[]): InstanceSample => ({
  instanceId,
  at: new Date(T0.getTime() + seconds * 1000),
  gpuUtil,
  gpuMemUsedMib: gpuUtil.map(() => 1000),
  gpuMemTotalMib: gpuUtil.map(() => 81_559),
  cpuPercent: 12.5,
  memUsedBytes: 1 << 30,
  memLimitBytes: 8 << 30,
  diskUsedBytes: 2 << 30,
  diskLimitBytes: 30 << 30,
});

describe('samples', () => {
  it('records a batch once and reports each instance’s busiest GPU since a moment', async () => {
    const repo = createSamplesRepository({ db: database.db });
    const batch = [sample(1, 0, [3, 90]), sample(1, 15, [2, 4]), sample(2, 15, [1]), sample(3, 15, [])];
    await repo.record(batch);
    await repo.record(batch); // a second replica sampling the same moment
    const since = await repo.gpuActivitySince([1, 2, 3, 4], new Date(T0.getTime() + 10_000));
    expect(since.get(1)).toEqual({ instanceId: 1, maxUtil: 4, firstAt: batch[1]?.at, samples: 1 });
    expect(since.get(2)?.maxUtil).toBe(1);
    // Instance 3's sample carries no GPU figures: it tells nothing about idleness.
    expect(since.has(3)).toBe(false);
    expect(since.has(4)).toBe(false);
    expect((await repo.gpuActivitySince([1], T0)).get(1)).toMatchObject({ maxUtil: 90, samples: 2 });
  });
});
