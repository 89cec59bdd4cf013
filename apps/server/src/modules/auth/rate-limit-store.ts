import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { countHit } from './rate-limits.repository.ts';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;
interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit backed by our database (its default store lives in one
 * process's memory). Each route counts under its own prefix, as the memory store's children do.
 */
export function databaseRateLimitStore(db: Db, clock: Clock) {
  return class DatabaseRateLimitStore {
    readonly prefix: string;
    // At run time the plugin hands in its merged route settings, whose `routeInfo` is the route.
    constructor(params?: object) {
      const route = (params as RouteParams | undefined)?.routeInfo;
      this.prefix = route?.url ? `${[route.method].flat().join(',')} ${route.url}|` : '';
    }
    incr(key: string, cb: Callback, timeWindow: number) {
      countHit(db, this.prefix + key, timeWindow, clock.now().getTime()).then(
        (res) => cb(null, res),
        (err: Error) => cb(err),
      );
    }
    child(params: object) {
      return new DatabaseRateLimitStore(params);
    }
  };
}
