import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../../lib/api-client';
import { confirmDialog, notify } from '../../../lib/feedback';
import { afterLogoutPath } from '../../../lib/routing/navigation';
import { useRouteHandle } from '../../../lib/routing/route-handle';
import { clearUserSession, USER_QUERY_KEY } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';

/**
 * Logout with the confirm dialog of SPEC.md §2. The local session is cleared whatever the
 * server answers; a route that requires auth is left for /market first, so its guard does not
 * send the browser to the login page.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const guard = useRouteHandle()?.guard;

  return () =>
    confirmDialog({
      title: t.userMenu.logoutConfirm,
      okText: t.common.confirm,
      cancelText: t.common.cancel,
      onOk: async () => {
        let failed = false;
        try {
          await api.post('/auth/logout');
        } catch (err) {
          // 401: the server session had already ended, which is what logging out wants.
          failed = !(err instanceof ApiError && err.status === 401);
        }
        const to = afterLogoutPath(guard);
        // flushSync: /market must be rendered before the session goes, or the guard of the
        // current (auth) route would send the browser to the login page instead.
        if (to) await navigate(to, { replace: true, flushSync: true });
        clearUserSession();
        // The next user must not see this one's balance or vouchers from the cache.
        queryClient.removeQueries({ queryKey: USER_QUERY_KEY });
        void notify(
          failed ? 'error' : 'success',
          failed ? t.userMenu.logoutFailed : t.userMenu.logoutSuccess,
        );
      },
    });
}
