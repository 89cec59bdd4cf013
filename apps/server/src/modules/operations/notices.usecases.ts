import type { UserNotice } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { createOperationsRepository } from './operations.repository.ts';

interface Deps {
  db: Db;
  now: Now;
}

/** The user's notices, newest first (the console shows the unread ones). */
export async function listNotices(deps: Deps, userId: number, unreadOnly: boolean): Promise<UserNotice[]> {
  const rows = await createOperationsRepository(deps).notices(userId, unreadOnly, 50);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    body: r.body,
    instanceId: r.instanceId,
    read: r.readAt !== null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Marks one notice (or, without an id, all of them) read; another user's id changes nothing. */
export async function markNoticesRead(deps: Deps, userId: number, id?: number) {
  await createOperationsRepository(deps).markRead(userId, deps.now(), id);
}
