import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { marketListSchema } from '@gpu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

// The read model's delivery (NOTIFY, caching, compression); market.test.ts checks what it lists.
describe('telling other replicas', () => {
  it('gathers a burst of changes into one NOTIFY, saying so when discount rules changed', async () => {
    const sent: string[] = [];
    const notify = t.database.notify;
    t.database.notify = async (_channel, payload) => {
      sent.push(payload);
    };
    try {
      for (let i = 0; i < 50; i++) t.app.deps.modules.market.market.invalidate();
      t.app.deps.modules.market.market.invalidate({ discounts: true });
      await new Promise((r) => setTimeout(r, 100));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/\+discounts$/);
      t.app.deps.modules.market.market.invalidate();
      await new Promise((r) => setTimeout(r, 100));
      expect(sent).toHaveLength(2);
      expect(sent[1]).not.toMatch(/\+discounts$/);
    } finally {
      t.database.notify = notify;
    }
  });
});

describe('answer coding', () => {
  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the cached answer brotli- or gzip-compressed as the client accepts, the same JSON decoded', async () => {
    t.app.deps.modules.market.market.invalidate();
    const plain = await get('/api/gpu/market?size=48');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const cases: [string, string | undefined, (b: Buffer) => Buffer][] = [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', gunzipSync],
      ['identity', undefined, (b) => b],
      ['zstd', undefined, (b) => b],
    ];
    for (const [accept, coding, decode] of cases) {
      for (let i = 0; i < 2; i++) {
        const res = await get('/api/gpu/market?size=48', accept);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(coding);
        expect(res.headers.vary).toBe('accept-encoding');
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        if (coding) expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(decode(res.rawPayload).equals(plain.rawPayload), accept).toBe(true);
      }
    }
  });

  it('answers a repeated URL from the read model with the very bytes and headers of its first answer', async () => {
    t.app.deps.modules.market.market.invalidate();
    for (const accept of ['br', undefined]) {
      const url = `/api/gpu/market?size=24&page=1&gpuCount=1&keyword=a${accept ?? ''}`;
      const first = await get(url, accept);
      const again = await get(url, accept);
      expect(first.statusCode, first.body).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      const { 'x-request-id': a, date: _d1, ...firstHeaders } = first.headers;
      const { 'x-request-id': b, date: _d2, ...againHeaders } = again.headers;
      expect(againHeaders).toEqual(firstHeaders);
      expect(b).not.toBe(a);
    }
    // A refused query is never remembered: refused every time, by name.
    for (let i = 0; i < 2; i++) {
      const bad = await get('/api/gpu/market?size=7', 'br');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('size');
    }
  });

  it('leaves answers under 1 kB as they are', async () => {
    const res = await get('/api/gpu/market?size=12&keyword=no-such-host', 'br');
    expect(res.json().data.total).toBe(0);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('serves a repeated URL from its cached answer until something changes the market', async () => {
    const url = '/api/gpu/market?size=48&gpuModel=RTX%204090';
    const idle = async () => {
      const res = await get(url, 'br');
      const page = marketListSchema.parse(JSON.parse(brotliDecompressSync(res.rawPayload).toString()).data);
      return page.list.reduce((n, i) => n + i.gpuIdleNum, 0);
    };
    t.app.deps.modules.market.market.invalidate();
    const before = await idle();
    const [gpu] = await t.db
      .select()
      .from(hostGpus)
      .where(
        and(eq(hostGpus.model, 'RTX 4090'), isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)),
      )
      .limit(1);
    await t.db
      .update(hostGpus)
      .set({ reservedReason: 'test' })
      .where(eq(hostGpus.id, gpu?.id as number));
    try {
      // Written behind the read model's back: the cached answer still stands...
      expect(await idle()).toBe(before);
      // ...until a change says so (every write path calls invalidate after commit).
      t.app.deps.modules.market.market.invalidate();
      expect(await idle()).toBe(before - 1);
    } finally {
      await t.db
        .update(hostGpus)
        .set({ reservedReason: null })
        .where(eq(hostGpus.id, gpu?.id as number));
      t.app.deps.modules.market.market.invalidate();
    }
  });
});
