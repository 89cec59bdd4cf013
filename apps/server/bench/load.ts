import autocannon from 'autocannon';

/** One measured route; run.ts prints them next to the baseline. */
export interface Figure {
  name: string;
  requestsPerSec: number;
  p99Ms: number;
  /** req/s of the plain route sending this answer's exact bytes (its limit), when measured. */
  limitPerSec?: number;
  /** Requests answered within the measured seconds (0: every one took longer; p99 then says nothing). */
  completed?: number;
}

export async function load(
  url: string,
  opts: {
    headers?: Record<string, string>;
    seconds?: number;
    /** Unmeasured warm-up before the figure (default 2 s). */
    warmSeconds?: number;
    /** Requests each connection sends in turn (autocannon `requests`), e.g. to spread tokens. */
    requests?: autocannon.Request[];
  } = {},
): Promise<Omit<Figure, 'name'>> {
  // The client in a worker thread: on the server's own event loop it would take its turns from
  // the server (more so for large answers, whose bodies it reads), and skew every ratio.
  const common = { url, connections: 50, headers: opts.headers, requests: opts.requests, workers: 1 };
  // A short unmeasured run first: JIT, connection set-up and first-fill caches are not the figure.
  await autocannon({ ...common, duration: opts.warmSeconds ?? 2 });
  const r = await autocannon({ ...common, duration: opts.seconds ?? 8 });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return {
    requestsPerSec: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    completed: r.requests.total,
  };
}
