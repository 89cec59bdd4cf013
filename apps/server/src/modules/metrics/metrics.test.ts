import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;

const TOKEN = 'scrape-secret-0123456789';
beforeAll(async () => {
  t = await createTestApp({ demo: true, config: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t.close());

const scrape = async (headers: Record<string, string> = {}) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
  });
  return res;
};
/** The value of one series line, e.g. `http_requests_total{method="GET",...}`. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, with a latency histogram', async () => {
    for (let i = 0; i < 3; i++) expect((await t.app.inject('/api/gpu/market')).statusCode).toBe(200);
    expect((await t.app.inject('/api/recharge/orders/123')).statusCode).toBe(401);
    expect((await t.app.inject('/api/no-such-thing')).statusCode).toBe(404);
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(value(text, 'http_requests_total{method="GET",route="/api/gpu/market",status="200"}')).toBe(3);
    // The pattern, not the URL: one series for every instance id.
    expect(
      value(text, 'http_requests_total{method="GET",route="/api/recharge/orders/:id",status="401"}'),
    ).toBe(1);
    expect(value(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/gpu/market"}')).toBe(3);
    expect(text).not.toContain('route="/metrics"');
  });

  it('reports ledger postings, GPUs busy per model, payment outcomes and task runs', async () => {
    const admin = await t.adminHeaders();
    const { user, headers } = await t.createUser();
    const before = value((await scrape()).body, 'ledger_postings_total{kind="adjustment"}') ?? 0;
    const adjust = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/balance-adjustment`,
      headers: admin,
      payload: { amount: 5, reason: '指标测试' },
    });
    expect(adjust.statusCode, adjust.body).toBe(200);
    const order = await t.app.inject({ method: 'POST', url: '/api/user/recharge?amount=100', headers });
    await t.app.tasks.runNow(t.app.tasks.names()[0] as string);

    const text = (await scrape()).body;
    expect(value(text, 'ledger_postings_total{kind="adjustment"}')).toBe(before + 1);
    const models = [...text.matchAll(/^gpus_total\{model="([^"]+)"\} (\d+)$/gm)];
    expect(models.length).toBeGreaterThan(0);
    for (const [, model, total] of models) {
      const busy = value(text, `gpus_busy{model="${model}"}`);
      expect(busy).toBeGreaterThanOrEqual(0);
      expect(busy).toBeLessThanOrEqual(Number(total));
      // One definition: every GPU is idle, occupied (busy) or reserved.
      const idle = value(text, `gpus_idle{model="${model}"}`);
      const reserved = value(text, `gpus_reserved{model="${model}"}`);
      expect(Number(busy) + Number(idle) + Number(reserved)).toBe(Number(total));
    }
    if (order.statusCode === 200) {
      expect(value(text, 'recharge_orders{provider="simulated",status="PENDING"}')).toBeGreaterThanOrEqual(1);
    } else {
      throw new Error(`recharge failed: ${order.body}`);
    }
    expect(value(text, `task_runs_total{task="${t.app.tasks.names()[0]}"}`)).toBe(1);
    expect(text).toContain('process_cpu_seconds_total');
  });
});

describe('request ids', () => {
  it('answers X-Request-Id: a fresh one, or the caller’s when it looks like an id', async () => {
    const fresh = await t.app.inject('/api/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await t.app.inject('/api/health');
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    const kept = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'proxy-abc-12345' } });
    expect(kept.headers['x-request-id']).toBe('proxy-abc-12345');
    // Anything else (log injection, huge values) is replaced, not echoed.
    const bad = await t.app.inject({ url: '/api/nope', headers: { 'x-request-id': 'a b\nc<script>' } });
    expect(bad.statusCode).toBe(404);
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('without METRICS_TOKEN (issue 26)', () => {
  it('serves no metrics at all: /metrics answers 404, with or without a bearer token', async () => {
    const open = await createTestApp({ demo: false });
    try {
      for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123' }]) {
        const res = await open.app.inject({ url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ success: false, code: '404' });
        expect(res.body).not.toContain('http_requests_total');
      }
    } finally {
      await open.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  let locked: T;
  beforeAll(async () => {
    locked = await createTestApp({ demo: false, config: { METRICS_TOKEN: 'scrape-secret-0123456789' } });
  });
  afterAll(() => locked.close());

  it('asks for the bearer token when one is configured', async () => {
    expect((await locked.app.inject('/metrics')).statusCode).toBe(401);
    const wrong = await locked.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const right = await locked.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret-0123456789' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('http_requests_total');
  });
});
