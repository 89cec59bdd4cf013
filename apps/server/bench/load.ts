import autocannon from 'autocannon';

/** One measured route; run.ts prints them next to the baseline. */
export interface Figure {
  name: string;
  requestsPerSec: number;
  p99Ms: number;
}

export async function load(
  url: string,
  opts: { headers?: Record<string, string>; seconds?: number } = {},
): Promise<Omit<Figure, 'name'>> {
  // A short unmeasured run first: JIT, connection set-up and first-fill caches are not the figure.
  await autocannon({ url, connections: 50, duration: 2, headers: opts.headers });
  const r = await autocannon({ url, connections: 50, duration: opts.seconds ?? 8, headers: opts.headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { requestsPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99 };
}
