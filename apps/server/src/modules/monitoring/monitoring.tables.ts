import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, real, smallint, timestamp } from 'drizzle-orm/pg-core';

/**
 * Raw samples of running instances, one row per instance every 15 s with the GPUs as arrays (one
 * multi-row insert per sampling batch; 8 GPUs cost one row, not eight). `at` is the start of the
 * 15 s slot, so two replicas sampling the same slot write the same key. No foreign key: samples
 * outlive nothing they describe and ingestion must not take locks on instances. `host_id` and
 * `gpu_indexes` (the host's GPU index of each array position) make the back office's host charts.
 * BRIN on `at`: retention deletes by time at almost no cost to ingestion.
 */
export const instanceSamples = pgTable(
  'instance_samples',
  {
    instanceId: bigint('instance_id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    hostId: integer('host_id').notNull().default(0),
    gpuIndexes: smallint('gpu_indexes').array().notNull().default(sql`'{}'`),
    gpuUtil: smallint('gpu_util').array().notNull(),
    gpuMemUsedMib: integer('gpu_mem_used_mib').array().notNull(),
    gpuMemTotalMib: integer('gpu_mem_total_mib').array().notNull(),
    cpuPercent: real('cpu_percent').notNull(),
    memUsedBytes: bigint('mem_used_bytes', { mode: 'number' }).notNull(),
    memLimitBytes: bigint('mem_limit_bytes', { mode: 'number' }).notNull(),
    diskUsedBytes: bigint('disk_used_bytes', { mode: 'number' }).notNull(),
    diskLimitBytes: bigint('disk_limit_bytes', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.at] }),
    index('instance_samples_host_at').on(t.hostId, t.at),
    index('instance_samples_at_brin').using('brin', t.at),
  ],
);

/**
 * Five-minute averages of the raw samples (ROLLUP_BUCKET_MS), kept 30 days: what the 7 d and 30 d
 * charts read. Per-GPU arrays are averages in GPU order; `gpu_util_max` is the busiest GPU's
 * highest sample in the bucket (idle questions over long windows). The primary key INCLUDEs every
 * column an instance chart reads (hand-written in migration 0017): a week is an index-only scan.
 */
export const instanceSampleRollups = pgTable(
  'instance_sample_rollups',
  {
    instanceId: bigint('instance_id', { mode: 'number' }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    hostId: integer('host_id').notNull(),
    gpuIndexes: smallint('gpu_indexes').array().notNull(),
    gpuUtil: real('gpu_util').array().notNull(),
    gpuUtilMax: smallint('gpu_util_max').notNull(),
    gpuMemUsedMib: real('gpu_mem_used_mib').array().notNull(),
    gpuMemTotalMib: integer('gpu_mem_total_mib').array().notNull(),
    cpuPercent: real('cpu_percent').notNull(),
    memUsedBytes: bigint('mem_used_bytes', { mode: 'number' }).notNull(),
    memLimitBytes: bigint('mem_limit_bytes', { mode: 'number' }).notNull(),
    diskUsedBytes: bigint('disk_used_bytes', { mode: 'number' }).notNull(),
    diskLimitBytes: bigint('disk_limit_bytes', { mode: 'number' }).notNull(),
    samples: integer('samples').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.bucket] }),
    index('instance_sample_rollups_host_bucket').on(t.hostId, t.bucket),
    index('instance_sample_rollups_bucket_brin').using('brin', t.bucket),
  ],
);

/** Where the rollup task has got to: buckets before `rolledUntil` are done (one row, id 1). */
export const monitoringRollupState = pgTable('monitoring_rollup_state', {
  id: integer('id').primaryKey(),
  rolledUntil: timestamp('rolled_until', { withTimezone: true }).notNull(),
});
