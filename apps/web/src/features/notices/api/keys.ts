import { authKeys } from '../../auth/api/keys';

/** The back office's notices to the signed-in user (under the per-user prefix: dropped at logout). */
export const noticeKeys = {
  all: () => [...authKeys.user, 'notices'] as const,
  unread: () => [...noticeKeys.all(), 'unread'] as const,
};
