import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_AI_NAVIGATION_URL } from '@gpu/shared/ai-navigation';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { createEmbedProbe, frameAncestors } from './embed-probe.ts';
import { tenants } from './tenants.tables.ts';

// Real pages on a local server, answering as sites that allow, forbid or fail a frame do.
const pages: Record<string, { status?: number; headers?: Record<string, string> }> = {
  '/ok': {},
  '/deny': { headers: { 'x-frame-options': 'DENY' } },
  '/sameorigin': { headers: { 'x-frame-options': 'SAMEORIGIN' } },
  '/none': { headers: { 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" } },
  '/self': { headers: { 'content-security-policy': "frame-ancestors 'self'" } },
  '/ours': {
    // frame-ancestors wins over X-Frame-Options, as in browsers.
    headers: {
      'content-security-policy': 'frame-ancestors https://*.example.com',
      'x-frame-options': 'DENY',
    },
  },
  '/missing': { status: 404 },
  '/moved': { status: 302, headers: { location: '/deny' } },
};
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') return; // never answers
    const page = pages[req.url ?? ''] ?? { status: 404 };
    res.writeHead(page.status ?? 200, { 'content-type': 'text/html', ...page.headers });
    res.end('<h1>page</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('embed probe', () => {
  const cases: [string, string, string][] = [
    ['/ok', 'gpu.example.com', 'ok'],
    ['/deny', 'gpu.example.com', 'refused'],
    ['/sameorigin', 'gpu.example.com', 'refused'],
    ['/none', 'gpu.example.com', 'refused'],
    ['/self', 'gpu.example.com', 'refused'],
    ['/ours', 'gpu.example.com', 'ok'],
    ['/ours', 'other.test', 'refused'],
    ['/missing', 'gpu.example.com', 'unavailable'],
    ['/moved', 'gpu.example.com', 'refused'],
  ];
  for (const [path, host, expected] of cases) {
    it(`${path} framed on ${host} is ${expected}`, async () => {
      const probe = createEmbedProbe();
      expect(probe.status(base + path, host)).toBe('unknown');
      await probe.check(base + path);
      expect(probe.status(base + path, host)).toBe(expected);
    });
  }

  it('answers unavailable for a closed port and a page that never answers', async () => {
    const probe = createEmbedProbe({ timeoutMs: 300 });
    const closed = 'http://127.0.0.1:1/';
    await Promise.all([probe.check(closed), probe.check(`${base}/slow`)]);
    expect(probe.status(closed, 'localhost')).toBe('unavailable');
    expect(probe.status(`${base}/slow`, 'localhost')).toBe('unavailable');
  });

  it('answers the last result while a stale one is checked again, once per URL', async () => {
    let clock = 0;
    let requests = 0;
    const probe = createEmbedProbe({
      now: () => clock,
      ttlMs: 1_000,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    await probe.check(`${base}/ok`);
    clock = 5_000;
    expect(probe.status(`${base}/ok`, 'localhost')).toBe('ok');
    expect(probe.status(`${base}/ok`, 'localhost')).toBe('ok');
    await probe.check(`${base}/ok`); // joins the check the stale answer started
    expect(requests).toBe(2);
  });

  it('reads frame-ancestors from a combined header', () => {
    expect(frameAncestors("default-src 'self', frame-ancestors 'none'")).toEqual(["'none'"]);
    expect(frameAncestors("script-src 'self'")).toBeNull();
  });
});

describe('GET /api/tenant/ai-navigation', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ config: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  const get = () =>
    t.app.inject({ method: 'GET', url: '/api/tenant/ai-navigation', headers: { host: 'localhost:8080' } });

  const setPage = async (url: string) => {
    await t.db
      .update(tenants)
      .set({ config: sql`${tenants.config} || ${JSON.stringify({ aiNavigationUrl: url })}::jsonb` })
      .where(eq(tenants.code, 'default'));
    t.app.deps.modules.tenants.service.invalidate();
  };

  it('answers the platform default page when the tenant sets none', async () => {
    expect((await get()).json().data.url).toBe(DEFAULT_AI_NAVIGATION_URL);
  });

  it("answers the tenant's page: unknown at first, then whether it can be framed", async () => {
    const url = `${base}/deny`;
    await setPage(url);
    expect((await get()).json().data).toEqual({ url, embed: 'unknown' });
    await t.app.deps.modules.tenants.embedProbe.check(url); // the check the answer started
    expect((await get()).json().data).toEqual({ url, embed: 'refused' });
  });

  it('answers refused for an http page on an https site (mixed content)', async () => {
    await setPage(`${base}/ok`);
    await t.app.deps.modules.tenants.embedProbe.check(`${base}/ok`);
    const on = (proto: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/tenant/ai-navigation',
        headers: { host: 'localhost', 'x-forwarded-proto': proto },
      });
    expect((await on('http')).json().data.embed).toBe('ok');
    expect((await on('https')).json().data.embed).toBe('refused');
  });
});
