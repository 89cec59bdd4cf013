import { api } from '../../../lib/api-client';
import { clearAdminSession } from '../../../lib/session';

/** SPEC.md §4: admin logout clears the admin session even if the call fails. */
export async function adminLogout(): Promise<void> {
  try {
    await api.post('/admin/auth/logout');
  } finally {
    clearAdminSession();
  }
}
