import { useMatches } from 'react-router';
import type { Guard } from './navigation';

/** What RouteGate reads from the deepest matched route. */
export interface RouteHandle {
  title?: string;
  guard: Guard;
}

/**
 * The handle of the deepest matched route (title and guard). A leaf module: pages and hooks
 * read it without importing the router that imports them.
 */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle) return handle;
  }
  return undefined;
}
