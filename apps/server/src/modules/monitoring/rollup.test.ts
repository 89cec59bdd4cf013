import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import { createMonitoringRepository } from './monitoring.repository.ts';
import { instanceSampleRollups, instanceSamples } from './monitoring.tables.ts';
import { runRollup } from './rollup.usecases.ts';
import { createSamplesRepository } from './samples.repository.ts';

const GIB = 1024 ** 3;

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const T0 = new Date('2026-11-26T08:00:00Z').getTime();
/** Instance 1 (GPUs 3 and 5 of host 7) and instance 2 (no GPU), every 15 s for 10 minutes. */
const batch = (k: number) => {
  const at = new Date(T0 + k * 15_000);
  return [
    {
      instanceId: 1,
      at,
      hostId: 7,
      gpuIndexes: [3, 5],
      gpuUtil: [k % 2 === 0 ? 100 : 0, 10],
      gpuMemUsedMib: [1000 + k, 2000],
      gpuMemTotalMib: [81_559, 81_559],
      cpuPercent: k,
      memUsedBytes: 1000 * k,
      memLimitBytes: 8 * GIB,
      diskUsedBytes: 5000,
      diskLimitBytes: 30 * GIB,
    },
    {
      instanceId: 2,
      at,
      hostId: 7,
      gpuIndexes: [],
      gpuUtil: [],
      gpuMemUsedMib: [],
      gpuMemTotalMib: [],
      cpuPercent: 50,
      memUsedBytes: 10,
      memLimitBytes: 20,
      diskUsedBytes: 30,
      diskLimitBytes: 40,
    },
  ];
};

describe('monitoring.rollup', () => {
  it('rolls complete 5-minute buckets up once: per-GPU averages, the busiest sample, the rest averaged', async () => {
    const clock = fixedClock(new Date(T0 + 11 * 60_000 + 30_000));
    const samples = createSamplesRepository({ db: database.db });
    for (let k = 0; k < 40; k++) await samples.record(batch(k));
    // 08:11:30: both buckets ended more than ROLLUP_GRACE_MS ago.
    const first = await runRollup({ db: database.db, clock });
    expect(first).toMatchObject({ rolled: 4, until: '2026-11-26T08:10:00.000Z' });
    expect(await runRollup({ db: database.db, clock })).toMatchObject({ rolled: 0 });
    const rows = await createMonitoringRepository({ db: database.db }).rollupsSince(new Date(T0));
    expect(rows.map((r) => [r.instanceId, r.bucket.toISOString(), r.samples])).toEqual([
      [1, '2026-11-26T08:00:00.000Z', 20],
      [1, '2026-11-26T08:05:00.000Z', 20],
      [2, '2026-11-26T08:00:00.000Z', 20],
      [2, '2026-11-26T08:05:00.000Z', 20],
    ]);
    expect(rows[0]).toMatchObject({
      hostId: 7,
      gpuIndexes: [3, 5],
      gpuUtil: [50, 10],
      gpuUtilMax: 100,
      gpuMemUsedMib: [1009.5, 2000],
      gpuMemTotalMib: [81_559, 81_559],
      cpuPercent: 9.5,
      memUsedBytes: 9500,
      memLimitBytes: 8 * GIB,
    });
    expect(rows[2]).toMatchObject({ gpuIndexes: [], gpuUtil: [], gpuUtilMax: 0, cpuPercent: 50 });
    // Five minutes on, the 08:10 bucket is complete but has no samples; nothing is added.
    clock.advance(5 * 60_000);
    expect(await runRollup({ db: database.db, clock })).toMatchObject({ rolled: 0 });
  });

  it('keeps raw samples a day and rollups 30 days, deleting older rows in bounded batches', async () => {
    const clock = fixedClock(new Date(T0 + 24 * 3600_000 + 5 * 60_000));
    const result = await runRollup({ db: database.db, clock });
    // Samples before 08:05 the next day are gone; the 08:05–08:10 ones stay.
    expect(result).toMatchObject({ rawDeleted: 40, rollupsDeleted: 0 });
    expect(await database.db.$count(instanceSamples)).toBe(40);
    clock.set(new Date(T0 + 30 * 24 * 3600_000 + 5 * 60_000));
    const repo = createMonitoringRepository({ db: database.db });
    expect(await repo.deleteRollupsBefore(clock.now(), 1)).toBe(1);
    const later = await runRollup({ db: database.db, clock });
    expect(later).toMatchObject({ rawDeleted: 40, rollupsDeleted: 1 });
    expect((await repo.rollupsSince(new Date(0))).map((r) => [r.instanceId, r.bucket.toISOString()])).toEqual(
      [
        [1, '2026-11-26T08:05:00.000Z'],
        [2, '2026-11-26T08:05:00.000Z'],
      ],
    );
    expect(await database.db.$count(instanceSampleRollups)).toBe(2);
  });
});
