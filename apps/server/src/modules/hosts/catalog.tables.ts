import { bigint, boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { hosts } from './hosts.tables.ts';

/**
 * What the hosts sell and run: GPU SKUs (GPUs of one model on one host at an hourly price, in
 * 0.0001 yuan units) and the image catalogue. Hosts own them as the lowest module that uses them:
 * the market, discounts, instances and the catalogue read them through this file.
 */
export const gpuSkus = pgTable(
  'gpu_skus',
  {
    id: serial('id').primaryKey(),
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    gpuModel: text('gpu_model').notNull(),
    gpuBrand: text('gpu_brand').notNull().default('NVIDIA'),
    memoryGb: integer('memory_gb').notNull(),
    cpuPerGpu: integer('cpu_per_gpu').notNull(),
    memoryPerGpuGb: integer('memory_per_gpu_gb').notNull().default(0),
    systemDiskGb: integer('system_disk_gb').notNull(),
    dataDiskGb: integer('data_disk_gb').notNull(),
    hourlyPrice: bigint('hourly_price', { mode: 'number' }).notNull(),
    listed: boolean('listed').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gpu_skus_host').on(t.hostId)],
);

/** The image catalogue (SPEC.md §3). */
export const images = pgTable('images', {
  id: serial('id').primaryKey(),
  imageName: text('image_name').notNull(),
  imageUrl: text('image_url').notNull().unique(),
  frameworkType: text('framework_type').notNull(),
  frameworkVersion: text('framework_version').notNull().default(''),
  pythonVersion: text('python_version').notNull().default(''),
  cudaVersion: text('cuda_version').notNull().default(''),
  cannVersion: text('cann_version').notNull().default(''),
  musaVersion: text('musa_version').notNull().default(''),
  osInfo: text('os_info').notNull().default(''),
  gpuBrand: text('gpu_brand').notNull().default('NVIDIA'),
  platformType: text('platform_type').notNull().default('local'),
  description: text('description').notNull().default(''),
  preset: boolean('preset').notNull().default(false),
  enabled: boolean('enabled').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
