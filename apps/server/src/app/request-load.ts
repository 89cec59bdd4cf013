import type { ServerResponse } from 'node:http';

/**
 * Requests this process is answering right now. Background work that can wait (instance jobs)
 * asks `busy()` and lets a burst of requests be answered first: on two cores a provisioning job
 * costs about as many queries as the create that kicked it.
 */
export interface RequestLoad {
  /** Counts the request until its response closes (answered, failed or aborted: 'close' always comes). */
  track(res: ServerResponse): void;
  inFlight(): number;
  busy(): boolean;
}

/** In-flight requests from which the process counts as busy (a lone request or two never defer jobs). */
export const BUSY_REQUESTS = 4;

export function createRequestLoad(threshold = BUSY_REQUESTS): RequestLoad {
  let n = 0;
  const done = () => {
    n = Math.max(0, n - 1);
  };
  return {
    track(res) {
      n++;
      res.once('close', done);
    },
    inFlight: () => n,
    busy: () => n >= threshold,
  };
}
