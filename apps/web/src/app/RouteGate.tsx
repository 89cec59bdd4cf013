import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { DevTenantSwitcher } from '../features/tenant';
import { documentTitle, guardRedirect } from '../lib/routing/navigation';
import { useRouteHandle } from '../lib/routing/route-handle';
import { isAdmin, isLoggedIn } from '../lib/session';
import { useTenant } from '../lib/tenant-context';
import { useSession } from '../lib/use-session';

/** Root of every route: applies the route's guard and sets the document title. */
export function RouteGate() {
  const handle = useRouteHandle();
  const location = useLocation();
  const session = useSession();
  const tenantName = useTenant().tenantName;

  const redirect = handle
    ? guardRedirect(handle.guard, location, { loggedIn: isLoggedIn(session), admin: isAdmin(session) })
    : null;

  useEffect(() => {
    document.title = documentTitle(handle?.title, tenantName);
  }, [handle, tenantName]);

  if (redirect) return <Navigate to={redirect} replace />;
  return (
    <>
      <Suspense fallback={<PageLoading fullscreen />}>
        <Outlet />
      </Suspense>
      {DevTenantSwitcher && (
        <Suspense fallback={null}>
          <DevTenantSwitcher />
        </Suspense>
      )}
      <ScrollRestoration />
    </>
  );
}
