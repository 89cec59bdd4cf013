import { ApiError, api } from '../../../lib/api-client';
import { clearAdminSession } from '../../../lib/session';

/**
 * SPEC.md §4: admin logout clears the admin session even if the call fails (and rethrows, so
 * the caller can say so). A 401 means the server session had already ended: that is done.
 */
export async function adminLogout(): Promise<void> {
  try {
    await api.post('/admin/auth/logout');
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  } finally {
    clearAdminSession();
  }
}
