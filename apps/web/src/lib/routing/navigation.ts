import { DEFAULT_POST_LOGIN_ROUTE } from '@gpu/shared/constants';

/**
 * The navigation rules of SPEC.md §2 as pure functions; the route table (router.tsx) gives each
 * route one of these guards and RouteGate applies the decision.
 * - public: anyone.
 * - auth: needs a logged-in user.
 * - guest: the login/register/forgot-password pages, for visitors only.
 * - admin: needs an admin.
 * - adminGuest: /admin/login, for non-admins only.
 */
export type Guard = 'public' | 'auth' | 'guest' | 'admin' | 'adminGuest';

export interface Place {
  pathname: string;
  search: string;
}

export interface Who {
  loggedIn: boolean;
  admin: boolean;
}

export const ADMIN_HOME = '/admin';
export const LOGIN = '/login';
export const ADMIN_LOGIN = '/admin/login';

const here = ({ pathname, search }: Place) => pathname + search;

export const loginPath = (target: string) => `${LOGIN}?redirect=${encodeURIComponent(target)}`;
export const adminLoginPath = (target: string) => `${ADMIN_LOGIN}?redirect=${encodeURIComponent(target)}`;

/** The redirect query when it is a path of this site under `prefix` (never another origin). */
export function redirectTarget(search: string, prefix = '/'): string | null {
  const target = new URLSearchParams(search).get('redirect');
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  if (
    prefix !== '/' &&
    target !== prefix &&
    !target.startsWith(`${prefix}/`) &&
    !target.startsWith(`${prefix}?`)
  )
    return null;
  return target;
}

/** SPEC.md §2: after login the user goes to the redirect query or /market. */
export const postLoginPath = (search: string) => redirectTarget(search) ?? DEFAULT_POST_LOGIN_ROUTE;

/** After admin login: the redirect query (an /admin path) or /admin. */
export const postAdminLoginPath = (search: string) => redirectTarget(search, ADMIN_HOME) ?? ADMIN_HOME;

/** Where a visit to `place` on a route with `guard` must go instead; null when it may stay. */
export function guardRedirect(guard: Guard, place: Place, who: Who): string | null {
  switch (guard) {
    case 'public':
      return null;
    case 'auth':
      return who.loggedIn ? null : loginPath(here(place));
    case 'guest':
      // A logged-in user leaves the auth pages: to the redirect query (the page that sent them
      // to log in) or /market. This is also how a successful login moves on.
      return who.loggedIn ? postLoginPath(place.search) : null;
    case 'admin':
      if (who.admin) return null;
      return place.pathname === ADMIN_HOME ? ADMIN_LOGIN : adminLoginPath(here(place));
    case 'adminGuest':
      return who.admin ? postAdminLoginPath(place.search) : null;
  }
}

/** SPEC.md §2: routes flagged as requiring auth go to /market after logout; others stay. */
export const afterLogoutPath = (guard: Guard | undefined): string | null =>
  guard === 'auth' ? DEFAULT_POST_LOGIN_ROUTE : null;

/** SPEC.md §2: the route title followed by the platform name, or just the platform name. */
export const documentTitle = (routeTitle: string | undefined, tenantName: string) =>
  routeTitle ? `${routeTitle} - ${tenantName}` : tenantName;
