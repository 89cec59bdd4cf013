import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeAccess } from '../modules/auth/index.ts';
import { createTestApp } from '../test/test-app.ts';
import { documentedRoutes } from './api-docs.ts';
import type { OpenApiDocument, Operation } from './api-docs-document.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op })),
  );
const codes = (op: Operation) => (op['x-errors'] ?? []).map((e) => e.errorCode);
const isMutating = (method: string) => !['get', 'head'].includes(method);

describe('the customer API document (issue 32)', () => {
  it('maps every customer route the app serves, and no back-office route', () => {
    const customer = documentedRoutes(t.app)
      .filter((r) => / \/api\//.test(r) && !r.includes(' /api/admin/'))
      .map((r) => r.replace(/:([A-Za-z_]+)/g, '{$1}'));
    expect(customer.length).toBeGreaterThan(100);
    const documented = operations().map((o) => o.key);
    expect(customer.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !customer.includes(r))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/admin'))).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('/api/admin/');
    for (const key of [
      'POST /api/auth/login',
      'GET /api/gpu/market',
      'GET /api/tenant/config',
      'GET /api/health',
    ])
      expect(documented).toContain(key);
  });

  it('marks exactly the routes needing a signed-in user, with what a token needs', async () => {
    let signedIn = 0;
    for (const { key, path, method, op } of operations()) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
      const access = op['x-access'];
      // A route whose stranger gets requireUser's 401 (common.unauthorized) says it needs a user.
      const refused = res.statusCode === 401 && res.json().errorCode === 'common.unauthorized';
      expect(refused, `${key} → ${res.statusCode} ${res.body.slice(0, 80)}`).toBe(access !== undefined);
      if (access === undefined) {
        expect(op.security, key).toBeUndefined();
        continue;
      }
      signedIn++;
      expect(['read', 'instances', 'billing', 'session'], key).toContain(access);
      expect(op.security, key).toEqual([{ bearer: [] }]);
      expect(op.description, key).toMatch(
        access === 'session' ? /仅限控制台登录/ : `需要令牌权限：${access}`,
      );
      expect(codes(op), key).toEqual(expect.arrayContaining(['common.unauthorized', 'common.rate_limited']));
      // Every token reads; a scope is missing only on the routes needing one; sessions only: refused.
      expect(codes(op).includes('auth.token_scope'), key).toBe(
        access === 'instances' || access === 'billing',
      );
      expect(codes(op).includes('auth.token_not_allowed'), key).toBe(access === 'session');
      if (isMutating(method)) {
        expect(codes(op), key).toEqual(
          expect.arrayContaining(['idempotency.bad_key', 'idempotency.in_flight']),
        );
        expect(
          op.parameters?.map((p) => p.name),
          key,
        ).toContain('Idempotency-Key');
      }
    }
    expect(signedIn).toBeGreaterThan(80);
    // The route's config.access, else read for GET and session for the rest.
    const access = (path: string, method: string) => doc.paths[path]?.[method]?.['x-access'];
    expect(access('/api/gpu/instance/create', 'post')).toBe('instances');
    expect(access('/api/gpu/instance/release', 'post')).toBe('instances');
    expect(access('/api/pay/createQrCode', 'post')).toBe('billing');
    expect(access('/api/user/access-tokens', 'post')).toBe('session');
    expect(access('/api/auth/change-password', 'post')).toBe('session');
    expect(access('/api/user/balance', 'get')).toBe('read');
    expect(access('/api/gpu/instance/{uuid}', 'get')).toBe('read');
    expect(access('/api/auth/login', 'post')).toBeUndefined();
    expect(doc.paths['/api/gpu/instance/create']?.post?.description).toContain(
      '需要令牌权限：instances（实例管理）',
    );
  });

  it('gives every operation its errors as answers with the failure envelope', () => {
    for (const { key, op } of operations()) {
      const errors = op['x-errors'] ?? [];
      const hasInput = op.requestBody !== undefined || (op.parameters ?? []).some((p) => p.in !== 'header');
      if (hasInput) {
        const validation = errors.find((e) => e.errorCode === 'common.validation');
        expect(validation?.message, key).toMatch(/^参数 \S+ 无效：/);
      }
      for (const e of errors) {
        const examples = op.responses[String(e.status)]?.content?.['application/json']?.examples ?? {};
        const values = Object.values(examples).map((x) => x.value);
        expect(values, `${key} ${e.errorCode}`).toContainEqual({
          success: false,
          code: String(e.status),
          message: e.message,
          data: null,
          errorCode: e.errorCode,
        });
        expect(e.message, `${key} ${e.errorCode}`).toMatch(/[\u4e00-\u9fff]/);
      }
    }
    // A module's own errors reach its routes: instances, payments, SSH keys.
    expect(codes(doc.paths['/api/gpu/instance/power_on']?.post as Operation)).toContain(
      'instances.bad_state',
    );
    expect(codes(doc.paths['/api/gpu/instance/create']?.post as Operation)).toContain(
      'instances.insufficient_balance',
    );
    expect(codes(doc.paths['/api/user/ssh-keys']?.post as Operation)).toContain('ssh_keys.duplicate');
    // A read lists no conflicts.
    expect(codes(doc.paths['/api/gpu/instances']?.get as Operation)).not.toContain('instances.bad_state');
  });

  it('has a request and a 200 example for every operation, real ones for the main shapes', () => {
    for (const { key, op } of operations()) {
      const ok = op.responses['200']?.content?.['application/json'];
      if (ok) expect(ok.example, key).toBeDefined();
      const body = op.requestBody?.content['application/json'];
      if (body) expect(body.example, key).toBeDefined();
      for (const p of op.parameters ?? [])
        if (p.in !== 'header') expect(p.example, `${key} ${p.name}`).toBeDefined();
      expect(op['x-codeSamples']?.[0]?.source, key).toMatch(/^curl -sS -X [A-Z]+ "\$GPU_API\/api\//);
    }
    const instances = doc.paths['/api/gpu/instances']?.get?.responses['200']?.content?.['application/json'];
    expect(instances?.example).toMatchObject({
      success: true,
      code: '200',
      data: { list: [{ gpuName: 'RTX 4090', regionName: '安徽A区', status: 'RUNNING', hourlyPrice: 1.98 }] },
    });
    const market = doc.paths['/api/gpu/market']?.get?.responses['200']?.content?.['application/json'];
    expect(market?.example).toMatchObject({ data: { list: [{ gpuName: 'RTX 4090', price: 1.98 }] } });
    const create = doc.paths['/api/gpu/instance/create']?.post;
    // The schema's own example, not one generated from types ("string").
    expect(create?.requestBody?.content['application/json']?.example).toMatchObject({
      machineId: 1,
      gpuAmount: 1,
      image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
    });
    const token = doc.paths['/api/user/access-tokens']?.post?.requestBody?.content['application/json'];
    expect(token?.example).toMatchObject({ name: '训练脚本' });
    expect(create?.['x-codeSamples']?.[0]?.source).toContain('Idempotency-Key');
    expect(JSON.stringify(doc)).not.toContain('9007199254740991');
  });

  it('introduces itself in Chinese: tokens, envelope, idempotency, limits, long-polling, webhooks, every code', () => {
    const text = doc.info.description ?? '';
    for (const phrase of [
      'Authorization: Bearer gpu_',
      '账号安全 → API令牌',
      '"errorCode": "instances.not_found"',
      'Idempotency-Key',
      '429',
      'waitFor=RUNNING&timeout=60',
      'docs/webhooks.md',
    ])
      expect(text).toContain(phrase);
    for (const { op } of operations()) for (const code of codes(op)) expect(text).toContain(`\`${code}\``);
    const tags = new Set(operations().flatMap(({ op }) => op.tags ?? []));
    expect(doc.tags?.map((x) => x.name).sort()).toEqual([...tags].sort());
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/[\u4e00-\u9fff]/);
  });

  it('reads what a token needs from the route, GET and HEAD reading by default', () => {
    expect(routeAccess('GET', undefined)).toBe('read');
    expect(routeAccess('HEAD', {})).toBe('read');
    expect(routeAccess('POST', {})).toBe('session');
    expect(routeAccess('POST', { access: 'instances' })).toBe('instances');
    expect(routeAccess('GET', { access: 'session' })).toBe('session');
  });
});
