import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { useSession } from '../features/auth/use-session';
import { useTenant } from '../features/tenant/tenant-context';
import { isAdmin, isLoggedIn } from '../lib/session';
import { documentTitle, guardRedirect } from './navigation';
import type { RouteHandle } from './router';

// Development only: the tenant switcher is not even part of the production build.
const DevTenantSwitcher = import.meta.env.DEV
  ? lazy(() => import('../features/tenant/components/TenantSwitcher'))
  : null;

/** The handle of the deepest matched route (title and guard). */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle) return handle;
  }
  return undefined;
}

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
