import { bigint, integer, pgTable, primaryKey, real, smallint, timestamp } from 'drizzle-orm/pg-core';

/**
 * Raw samples of running instances, one row per instance every 15 s with the GPUs as arrays (one
 * multi-row insert per sampling batch; 8 GPUs cost one row, not eight). No foreign key: samples
 * outlive nothing they describe and ingestion must not take locks on instances.
 */
export const instanceSamples = pgTable(
  'instance_samples',
  {
    instanceId: bigint('instance_id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    gpuUtil: smallint('gpu_util').array().notNull(),
    gpuMemUsedMib: integer('gpu_mem_used_mib').array().notNull(),
    gpuMemTotalMib: integer('gpu_mem_total_mib').array().notNull(),
    cpuPercent: real('cpu_percent').notNull(),
    memUsedBytes: bigint('mem_used_bytes', { mode: 'number' }).notNull(),
    memLimitBytes: bigint('mem_limit_bytes', { mode: 'number' }).notNull(),
    diskUsedBytes: bigint('disk_used_bytes', { mode: 'number' }).notNull(),
    diskLimitBytes: bigint('disk_limit_bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.at] })],
);
