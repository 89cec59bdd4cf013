import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { instances } from '../instances/instances.tables.ts';

/**
 * vast.ai's rentable offers as the last refresh saw them: every replica's market reads these
 * rows, so the market never waits on vast.ai (a refresh replaces them all).
 */
export const vastaiOffers = pgTable('vastai_offers', {
  offerId: bigint('offer_id', { mode: 'number' }).primaryKey(),
  gpuName: text('gpu_name').notNull(),
  numGpus: integer('num_gpus').notNull(),
  gpuMemoryGb: integer('gpu_memory_gb').notNull(),
  cpuName: text('cpu_name').notNull().default(''),
  cpuCores: integer('cpu_cores').notNull().default(0),
  memoryGb: integer('memory_gb').notNull().default(0),
  diskGb: integer('disk_gb').notNull().default(0),
  /** vast.ai's price of the whole offer, millionths of a US dollar per hour. */
  usdMicrosPerHour: bigint('usd_micros_per_hour', { mode: 'number' }).notNull(),
  geolocation: text('geolocation').notNull().default(''),
  cudaVersion: text('cuda_version').notNull().default(''),
  driverVersion: text('driver_version').notNull().default(''),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
});

/** What an overseas instance rents on vast.ai, and the SSH address vast.ai gave it. */
export const vastaiRentals = pgTable('vastai_rentals', {
  instanceId: bigint('instance_id', { mode: 'number' })
    .primaryKey()
    .references(() => instances.id, { onDelete: 'cascade' }),
  offerId: bigint('offer_id', { mode: 'number' }).notNull(),
  /** The offer's price when rented (the instance's own price is in instances.hourly_rate). */
  usdMicrosPerHour: bigint('usd_micros_per_hour', { mode: 'number' }).notNull(),
  diskGb: integer('disk_gb').notNull(),
  /** vast.ai's instance (contract) id, also instances.container_id. */
  vastInstanceId: bigint('vast_instance_id', { mode: 'number' }),
  sshHost: text('ssh_host'),
  sshPort: integer('ssh_port'),
  /** vast.ai's actual_status at the last look (created, loading, running, exited). */
  vastStatus: text('vast_status'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
