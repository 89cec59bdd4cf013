import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';

/** SAVING → AVAILABLE | FAILED; DELETING while the delete job removes it from host and registry. */
export type UserImageStatus = 'SAVING' | 'AVAILABLE' | 'FAILED' | 'DELETING';

/**
 * A user's private image (保存镜像, issue 30): a powered-off instance's system disk committed
 * on its host (`ref`), pushed to IMAGE_REGISTRY when one was set (`published`). Only its owner
 * sees and uses it; without a registry only on `host_id`. Storage is not charged: the quota
 * (user-images quota in app_meta) bounds it.
 */
export const userImages = pgTable(
  'user_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<UserImageStatus>().notNull(),
    /** 0..100 while saving (commit, then push). */
    progress: smallint('progress').notNull().default(0),
    /** Known once committed; counts towards the size quota from then on. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id),
    sourceInstanceId: bigint('source_instance_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    /** The image reference on the host (and in the registry when published). */
    ref: text('ref'),
    /** Pushed to the registry its ref names: every host may pull it. */
    published: boolean('published').notNull().default(false),
    /** Why it failed, for its owner (zh-CN). */
    error: text('error'),
    /** The delete job's lease (as instances.claimed_until). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_images_user_idx').on(t.userId, t.createdAt),
    // A create names the image by its reference.
    uniqueIndex('user_images_ref_idx').on(t.ref),
    index('user_images_deleting_idx').on(t.status).where(sql`status = 'DELETING'`),
  ],
);
