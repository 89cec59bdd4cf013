import type { UserNotice } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { createNoticesRepository } from './notices.repository.ts';

export interface NoticesDeps {
  db: Db;
  now: Now;
}

/** The user's notices, newest first (the console shows the unread ones). */
export async function listNotices(
  deps: NoticesDeps,
  userId: number,
  unreadOnly: boolean,
): Promise<UserNotice[]> {
  const rows = await createNoticesRepository(deps).notices(userId, unreadOnly, 50);
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
export async function markNoticesRead(deps: NoticesDeps, userId: number, id?: number) {
  await createNoticesRepository(deps).markRead(userId, deps.now(), id);
}
