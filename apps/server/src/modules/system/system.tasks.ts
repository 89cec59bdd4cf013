import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { vacuumAnalyze } from './system.repository.ts';

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
export function registerSystemTasks(app: AppInstance, c: Container) {
  if (c.database.kind !== 'pglite') return;
  app.tasks.register({ name: VACUUM_TASK, intervalMs: VACUUM_INTERVAL_MS, run: () => vacuumAnalyze(c.db) });
}
