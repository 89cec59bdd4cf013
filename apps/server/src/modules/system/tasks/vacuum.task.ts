import type { Task } from '../../../platform/tasks.ts';
import type { SystemDeps } from '../system.deps.ts';
import { vacuumAnalyze } from '../system.repository.ts';

export const VACUUM_TASK = 'system.vacuum';
/**
 * How often the embedded database is vacuumed. Metering rewrites every running instance and its
 * current bill line each minute: without a vacuum the dead versions pile up for good and every
 * read and write slows down. An hour of them costs the vacuum a fraction of a second.
 */
export const VACUUM_INTERVAL_MS = 60 * 60_000;

/**
 * PGlite only: it has no autovacuum (PostgreSQL does, and needs no task). Blocks the embedded
 * database while it runs, like any statement there.
 */
export const vacuumTask = ({ database }: SystemDeps): Task | null =>
  database.kind === 'pglite'
    ? { name: VACUUM_TASK, intervalMs: VACUUM_INTERVAL_MS, run: () => vacuumAnalyze(database.db) }
    : null;
