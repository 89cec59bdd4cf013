import type { BillingType, InstanceStatus } from '@gpu/shared';
import { ORDER_BILL_KINDS } from '@gpu/shared/labels';
import type { NotificationEvent } from '@gpu/shared/notifications';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

import { DOC_PREFIXES, docNoSql } from '../../platform/doc-no.ts';
import { users } from '../auth/auth.tables.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/** What a power off / power on / release job carries from its request (lifecycle.usecases.ts). */
/** A container port and the host port it is published on. */
export interface ExtraPortMapping {
  containerPort: number;
  hostPort: number;
}

/** What a transition tells the owner when it ends (event: admin_action when absent). */
export interface TransitionNotice {
  title: string;
  body: string;
  event?: NotificationEvent;
  dedupeKey?: string;
  params?: Record<string, unknown>;
}

export interface TransitionJob {
  /** STOPPING: the stop reason saved on success, and the warning shown after an arrears/expiry stop. */
  stopReason?: string;
  warning?: string | null;
  /** RELEASING: the reason on the RELEASED event, and the state a failed release returns to. */
  reason?: string;
  from?: 'RUNNING' | 'STOPPED';
  /** RESETTING: the image the new container is made from (the instance's, or the one changed to). */
  image?: string;
  /** CREATING a clone: the instance whose system disk and data volume it is made from. */
  cloneOf?: number;
  /** SAVING_IMAGE: the user image row the job commits into (images/save.usecases.ts). */
  imageId?: number;
  /**
   * The notice the owner gets once it is done (an admin's action; a system stop such as arrears):
   * written through notices' `notify`, so its event fans out and its dedupe key holds.
   */
  notice?: TransitionNotice;
}

/**
 * A rented container (DESIGN §6). Money columns are 0.0001-yuan units. The price is a snapshot
 * taken at create (discount included), so later price changes never touch a running order.
 */
export const instances = pgTable(
  'instances',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id),
    skuId: integer('sku_id')
      .notNull()
      .references(() => gpuSkus.id),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    name: text('name').notNull(),
    image: text('image').notNull(),
    gpuModel: text('gpu_model').notNull(),
    gpuCount: integer('gpu_count').notNull(),
    /** GPU indices last held; power on prefers them (Docker cannot change a container's GPUs). */
    gpuIndices: jsonb('gpu_indices').$type<number[]>().notNull().default([]),
    billingType: text('billing_type').$type<BillingType>().notNull(),
    /** Discounted price of the whole instance per hour (all GPUs); what metering charges. */
    hourlyRate: bigint('hourly_rate', { mode: 'number' }).notNull(),
    /**
     * No-GPU mode (无卡模式, issue 30): set from its region's price at a power on with
     * `mode=nogpu`, cleared when it stops or starts normally. While set, the running period
     * accrues at this rate instead of `hourly_rate`, its container has no GPU, and metering's
     * bill lines are of kind `nogpu`.
     */
    noGpuRate: bigint('nogpu_rate', { mode: 'number' }),
    /** Packages: discounted price of one GPU for one period, for renewals. */
    packageUnitPrice: bigint('package_unit_price', { mode: 'number' }),
    discountRateBp: integer('discount_rate_bp'),
    duration: integer('duration').notNull().default(1),
    status: text('status').$type<InstanceStatus>().notNull(),
    containerId: text('container_id'),
    sshPort: integer('ssh_port'),
    jupyterPort: integer('jupyter_port'),
    /**
     * The user's extra service ports (issue 30), each mapped to a host port of the pool that
     * host_ports holds for this instance, like the SSH and JupyterLab ones. Changed only while
     * powered off; the container gets them when it is next made.
     */
    extraPorts: jsonb('extra_ports').$type<ExtraPortMapping[]>().notNull().default([]),
    /** SSH address when the provider gives its own (vast.ai); else the host's public address. */
    sshHost: text('ssh_host'),
    /** AES-256-GCM under a key derived from APP_SECRET. */
    rootPasswordEnc: text('root_password_enc').notNull(),
    /**
     * JupyterLab's token, sealed like the password. Null on instances made before it existed:
     * their containers took the root password as the token.
     */
    jupyterTokenEnc: text('jupyter_token_enc'),
    /** SSH password sign-in (off: keys only); the container gets it at the next create or power on. */
    sshPasswordAuth: boolean('ssh_password_auth').notNull().default(true),
    /** Pay-as-you-go: accrual of closed running periods, and everything charged so far. */
    accruedClosed: bigint('accrued_closed', { mode: 'number' }).notNull().default(0),
    charged: bigint('charged', { mode: 'number' }).notNull().default(0),
    /** The voucher this order used (its row: vouchers module). */
    voucherId: bigint('voucher_id', { mode: 'number' }),
    /**
     * Pay-as-you-go: voucher money taken from the voucher at create and not consumed yet;
     * metering spends it before the balance, release gives the rest back to the voucher.
     */
    voucherHeld: bigint('voucher_held', { mode: 'number' }).notNull().default(0),
    /** Voucher money this instance has spent (package deduction, consumed hold). */
    voucherUsed: bigint('voucher_used', { mode: 'number' }).notNull().default(0),
    runningSince: timestamp('running_since', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** A failed create the owner removed from their list (删除记录); the row and its bills stay. */
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    stopReason: text('stop_reason'),
    /** Shown to the user: arrears, expiry, coming release. */
    warning: text('warning'),
    /** When a transitional state began, so the reconcile task finds work left half done. */
    transitionAt: timestamp('transition_at', { withTimezone: true }),
    /**
     * CREATING: the provisioning worker that claimed the driver work owns it until then; a claim
     * left to expire is a worker that died, and the next sweep takes it over.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /**
     * STOPPING / STARTING / RELEASING: what the job finishing the transition needs (the stop
     * reason, the release's reason and state before, an admin's notice to the owner). Written
     * with the transition, cleared with its end state.
     */
    transitionJob: jsonb('transition_job').$type<TransitionJob>(),
    /** The client's `Idempotency-Key` of the purchase: one key buys at most one instance. */
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('instances_user').on(t.userId, t.id),
    // The console's list (its user and tenant, not dismissed, newest first): a deep page's ids
    // and the count come from this index alone. Migration 0022 adds INCLUDE (status, released_at),
    // which the list's filters read and Drizzle cannot declare.
    index('instances_user_list').on(t.userId, t.tenantId, t.id).where(sql`${t.dismissedAt} is null`),
    // The list as it opens takes its ids and count from the live and the just-released apart
    // (issue 33): small indexes, however many instances the customer released before.
    index('instances_user_live')
      .on(t.userId, t.tenantId, t.id)
      .where(sql`${t.dismissedAt} is null and ${t.status} <> 'RELEASED'`),
    index('instances_user_released')
      .on(t.userId, t.tenantId, t.releasedAt, t.id)
      .where(sql`${t.dismissedAt} is null and ${t.status} = 'RELEASED'`),
    // The back office's users page counts each user's running instances (issue 33): a user
    // with 10,000 released ones had them all read for the few running.
    index('instances_user_running').on(t.userId).where(sql`${t.status} = 'RUNNING'`),
    // The console's spend monitor reads what accrues (ACCRUING, written out to match the query):
    // the largest customer's 10,018 instances were read for its 8 running ones (issue 33).
    index('instances_user_accruing')
      .on(t.userId, t.tenantId)
      .where(sql`${t.status} in ('RUNNING', 'STOPPING')`),
    // The console list's total is the instances tally less these (issue 33): few, 删除记录 only.
    index('instances_user_dismissed').on(t.userId, t.tenantId).where(sql`${t.dismissedAt} is not null`),
    // id last: the back office's filtered list (newest first) reads only its page.
    index('instances_status').on(t.status, t.billingType, t.id),
    index('instances_host').on(t.hostId),
    uniqueIndex('instances_user_idempotency_key').on(t.userId, t.idempotencyKey),
  ],
);

/** Every transition: who, why, when (DESIGN §6). */
export const instanceEvents = pgTable(
  'instance_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: bigint('instance_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    /** `user:<id>`, `admin:<id>` or `system`. */
    actor: text('actor').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('instance_events_instance').on(t.instanceId, t.id)],
);

/**
 * The bills a user reads: one row per charge or refund of an instance, tied to its ledger row;
 * pay-as-you-go metering has one row per instance per UTC clock hour, updated as it accrues.
 * Stored with fillfactor 50 (migration 0004, which Drizzle's schema cannot express): each
 * minute's rewrite of a line then stays on its page, writing no index entry.
 */
export const billingRecords = pgTable(
  'billing_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    userId: integer('user_id').notNull(),
    instanceId: bigint('instance_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    billingType: text('billing_type').$type<BillingType>().notNull(),
    /** create (package), metering, renewal, refund, nogpu (no-GPU mode's metering). */
    kind: text('kind').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** Positive = the user paid; negative = refunded. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    voucherAmount: bigint('voucher_amount', { mode: 'number' }).notNull().default(0),
    /** Metering: the latest ledger row posted into this line (a line gathers one hour's postings). */
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }),
    /** Metering only: the UTC hour this line covers; one line per instance, hour and kind. */
    meterHour: timestamp('meter_hour', { withTimezone: true }),
    /** Metering only: the rate it accrued at (the instance's, or no-GPU mode's). */
    hourlyRate: bigint('hourly_rate', { mode: 'number' }),
    /**
     * The number the customer sees (OD… orders, BL… bills; platform/doc-no.ts). Orders are
     * numbered by the app; metering's bulk insert takes this default.
     */
    recordNo: text('record_no').notNull().default(docNoSql(DOC_PREFIXES.bill, sql`now()`)),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A customer's bills newest (highest id) first, any page, and the export's keyset (issue 33);
    // time rides along for date ranges. Never a column metering rewrites (amount, period): that
    // would end the in-place (HOT) rewrites the fillfactor is for.
    index('billing_records_user').on(t.userId, t.tenantId, t.id, t.createdAt),
    // A customer's spend since a time (today, this month, the 30-day chart): a range of its
    // lines by time, where the index above reads every line the customer has to find them.
    index('billing_records_user_time').on(t.userId, t.tenantId, t.createdAt),
    // "My orders": the few order lines among the hourly metering ones, newest first, any page.
    // Partial, so metering's bulk inserts do not write it.
    index('billing_records_orders')
      .on(t.userId, t.tenantId, t.id)
      .where(sql.raw(`kind in (${ORDER_BILL_KINDS.map((k) => `'${k}'`).join(', ')})`)),
    uniqueIndex('billing_records_record_no').on(t.recordNo),
    // Days of the whole platform (the operations dashboard's roll-up and today's live figures);
    // created_at never changes, so metering's in-place rewrites stay in place.
    index('billing_records_time').on(t.createdAt),
    // Also serves lookups by instance alone (its leading column): no separate instance index,
    // one index less for metering to write per bill line (issue 15).
    // Kind too: an hour may hold a GPU period's line and a no-GPU period's (issue 30).
    uniqueIndex('billing_records_meter_hour').on(t.instanceId, t.meterHour, t.kind),
  ],
);
