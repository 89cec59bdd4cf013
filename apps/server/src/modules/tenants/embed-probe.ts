import type { EmbedStatus } from '@gpu/shared/ai-navigation';

/** What one request for the page found; whether it may be framed depends on who frames it. */
export interface ProbeResult {
  reachable: boolean;
  /** X-Frame-Options forbids every other origin (DENY, SAMEORIGIN). */
  frameOptionsDeny: boolean;
  /** CSP `frame-ancestors` sources, or null when the page sends none. */
  frameAncestors: string[] | null;
  checkedAt: number;
}

export interface EmbedProbeOptions {
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
  /** A result older than this is answered and checked again in the background. */
  ttlMs?: number;
}

/** Tenants' pages only (admins set the URLs), so a small bound holds every one of them. */
const MAX_URLS = 64;
const FAILED_TTL_MS = 30_000;

/**
 * Checks whether the pages we frame (the tenant's AI navigation) can show in a frame. The check
 * is outside work, so a request never waits for it: it answers the last result and starts a
 * check when there is none or it is stale (one in flight per URL).
 */
export function createEmbedProbe(options: EmbedProbeOptions = {}) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const results = new Map<string, ProbeResult>();
  const inFlight = new Map<string, Promise<void>>();

  const check = (url: string): Promise<void> => {
    const running = inFlight.get(url);
    if (running) return running;
    const done = probe(doFetch, url, timeoutMs, now).then((result) => {
      results.delete(url);
      results.set(url, result);
      if (results.size > MAX_URLS) results.delete(results.keys().next().value as string);
      inFlight.delete(url);
    });
    inFlight.set(url, done);
    return done;
  };

  return {
    /** The page's status for a frame on `frameHost`, from the last check; starts one when due. */
    status(url: string, frameHost: string): EmbedStatus {
      const last = results.get(url);
      // A failure may be passing (the site's or our network), so it is checked again sooner.
      const due = last && (last.reachable ? ttlMs : Math.min(ttlMs, FAILED_TTL_MS));
      if (!last || now() - last.checkedAt >= (due ?? 0)) void check(url);
      return last ? embedVerdict(last, frameHost) : 'unknown';
    },
    /** Checks now and waits (tests). */
    check,
  };
}
export type EmbedProbe = ReturnType<typeof createEmbedProbe>;

async function probe(doFetch: typeof fetch, url: string, timeoutMs: number, now: () => number) {
  const checkedAt = now();
  try {
    const res = await doFetch(url, {
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'text/html' },
    });
    await res.body?.cancel();
    return {
      reachable: res.status < 400,
      frameOptionsDeny: /\b(deny|sameorigin)\b/i.test(res.headers.get('x-frame-options') ?? ''),
      frameAncestors: frameAncestors(res.headers.get('content-security-policy')),
      checkedAt,
    };
  } catch {
    return { reachable: false, frameOptionsDeny: false, frameAncestors: null, checkedAt };
  }
}

/** The sources of the first `frame-ancestors` directive of a (possibly combined) CSP header. */
export function frameAncestors(csp: string | null): string[] | null {
  if (!csp) return null;
  for (const directive of csp.split(/[;,]/)) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name?.toLowerCase() === 'frame-ancestors') return sources.map((s) => s.toLowerCase());
  }
  return null;
}

/** Browsers obey `frame-ancestors` when present and X-Frame-Options only without it. */
export function embedVerdict(result: ProbeResult, frameHost: string): EmbedStatus {
  if (!result.reachable) return 'unavailable';
  if (result.frameAncestors) {
    return result.frameAncestors.some((source) => sourceAllows(source, frameHost)) ? 'ok' : 'refused';
  }
  return result.frameOptionsDeny ? 'refused' : 'ok';
}

/** A CSP host source against our host ('self' is the framed page's origin, never ours). */
function sourceAllows(source: string, host: string): boolean {
  if (source === '*' || source === 'http:' || source === 'https:') return true;
  const hostPart = source.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[:/].*$/, '');
  if (hostPart.startsWith('*.')) return host.endsWith(hostPart.slice(1));
  return hostPart === host;
}
