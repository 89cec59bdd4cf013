import { USER_QUERY_KEY } from '../../../lib/session';

/** The back office's notices to the signed-in user (under the per-user prefix: dropped at logout). */
export const noticeKeys = {
  all: () => [...USER_QUERY_KEY, 'notices'] as const,
  unread: () => [...noticeKeys.all(), 'unread'] as const,
};
