import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedOnFirstStart } from '../modules/system/system.usecases.ts';
import { commonErrors } from '../platform/errors.ts';
import { API_SECURITY_HEADERS } from '../platform/http/security-headers.ts';
import { createTestApp, createTestDatabase, productionSettings, testConfig } from '../test/test-app.ts';
import { buildServer } from './server.ts';

describe('API envelope and errors', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
    t.app.get('/api/test/boom', async () => {
      throw new Error('secret internals: password=hunter2');
    });
    t.app.get('/api/test/app-error', async () => {
      throw commonErrors.conflict('已存在');
    });
    t.app.get('/api/test/page', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send('<!doctype html><p>页面</p>'),
    );
  });
  afterAll(() => t.close());

  it('answers unknown /api paths with a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      code: '404',
      message: '接口不存在',
      data: null,
      errorCode: 'common.not_found',
    });
  });

  it('sends the API security headers on JSON answers and on errors', async () => {
    for (const url of ['/api/gpu/market', '/api/does-not-exist', '/api/gpu/market?page=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name]).toBe(value);
      // The document directives belong to pages only (frame-ancestors covers framing).
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("sends helmet's full set on pages (set once, not rebuilt per request)", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/page' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: https:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';frame-src 'self' https: http:;connect-src 'self'",
      );
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('answers thrown errors with a 500 envelope that hides internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      code: '500',
      message: '服务器内部错误，请稍后重试',
      data: null,
      errorCode: 'common.internal',
    });
    expect(res.body).not.toContain('hunter2');
  });

  it('answers application errors with their status and Chinese message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: '409', message: '已存在' });
  });

  it('answers invalid input with a 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/gpu/market?page=abc' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('400');
    expect(body.message).toContain('page');
    expect(body.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tenant/config',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect([400, 404]).toContain(res.statusCode);
    expect(res.json().success).toBe(false);
  });

  it('reports health with a database check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, code: '200', data: { status: 'ok' } });
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/tenant/config', '/api/gpu/market']),
    );
    expect(doc.paths['/api/gpu/market'].get.parameters.map((p: { name: string }) => p.name)).toContain(
      'size',
    );
  });
});

describe('health when the database is gone', () => {
  it('answers 503 in the envelope', async () => {
    const database = await createTestDatabase();
    const app = await buildServer({ config: testConfig(), database, webDist: '/nonexistent' });
    await database.close();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      success: false,
      code: '503',
      message: '数据库不可用',
      data: null,
      errorCode: 'common.unavailable',
    });
    await app.close();
  });
});

describe('SPA serving', () => {
  it('serves index.html for client routes and 404 envelopes for /api', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'spa-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>spa</title>');
    const database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const app = await buildServer({ config: testConfig(), database, webDist: dist });
    const page = await app.inject({ method: 'GET', url: '/console/instance?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<title>spa</title>');
    const missingAsset = await app.inject({ method: 'GET', url: '/assets/index-gone.js' });
    expect(missingAsset.statusCode).toBe(404);
    writeFileSync(path.join(dist, 'late.txt'), 'built after start');
    expect((await app.inject({ method: 'GET', url: '/late.txt' })).body).toBe('built after start');
    const api = await app.inject({ method: 'GET', url: '/api/console' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('404');

    // The build's pre-compressed copies go to browsers that accept them; others get the file.
    mkdirSync(path.join(dist, 'assets'));
    const js = 'console.log("app");'.repeat(200);
    writeFileSync(path.join(dist, 'assets/app-1.js'), js);
    writeFileSync(path.join(dist, 'assets/app-1.js.br'), brotliCompressSync(js));
    writeFileSync(path.join(dist, 'assets/app-1.js.gz'), gzipSync(js));
    const br = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    const gz = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
    await app.close();
    await database.close();
  });
});

describe('API documentation (issues 26, 32)', () => {
  it('in production: the JSON for signed-in users only, the page in the console, the full map for admins', async () => {
    const prod = await createTestApp({ demo: false, config: productionSettings() });
    try {
      expect((await prod.app.inject({ url: '/api/docs/json' })).statusCode).toBe(401);
      const user = await prod.createUser();
      const doc = await prod.app.inject({ url: '/api/docs/json', headers: user.headers });
      expect(doc.statusCode).toBe(200);
      expect(Object.keys(doc.json().paths)).toContain('/api/gpu/instances');
      // A personal access token reads it too (any scope).
      const created = await prod.app.inject({
        method: 'POST',
        url: '/api/user/access-tokens',
        headers: user.headers,
        payload: { name: 'docs', scopes: ['read'], expiresInDays: 7 },
      });
      const token = { authorization: `Bearer ${created.json().data.token}`, 'x-tenant-host': 'localhost' };
      expect((await prod.app.inject({ url: '/api/docs/json', headers: token })).statusCode).toBe(200);
      for (const url of ['/api/docs', '/api/docs/']) {
        const page = await prod.app.inject({ url });
        expect([page.statusCode, page.headers.location], url).toEqual([302, '/console/api-docs']);
      }
      // No Swagger UI in production unless public.
      expect((await prod.app.inject({ url: '/api/docs/static/index.html' })).statusCode).toBe(404);
      expect((await prod.app.inject({ url: '/api/admin/docs/json' })).statusCode).toBe(401);
      expect((await prod.app.inject({ url: '/api/admin/docs/json', headers: user.headers })).statusCode).toBe(
        401,
      );
      const full = await prod.app.inject({ url: '/api/admin/docs/json', headers: await prod.adminHeaders() });
      expect(Object.keys(full.json().paths)).toContain('/api/admin/hosts');
    } finally {
      await prod.close();
    }
    const open = await createTestApp({
      demo: false,
      config: { ...productionSettings(), API_DOCS: 'public' },
    });
    try {
      const res = await open.app.inject({ url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      expect(res.json().openapi).toMatch(/^3\./);
      expect(Object.keys(res.json().paths).filter((p) => p.startsWith('/api/admin'))).toEqual([]);
      const page = await open.app.inject({ url: '/api/docs/' });
      expect([page.statusCode, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    } finally {
      await open.close();
    }
  });
});
