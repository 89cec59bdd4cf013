import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, IN_FLIGHT } from './api-client';
import { idempotentAction, newIdempotencyKey, outcomeUnknown } from './idempotent-action';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('idempotency keys', () => {
  it('are fresh each time and match the server’s rule (8–128 of [A-Za-z0-9_-])', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(keys.size).toBe(100);
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  });
});

describe('idempotentAction: one key per user action', () => {
  const keys = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('sends a fresh key on each click once the previous one was answered (success or refusal)', async () => {
    const sent: string[] = [];
    let fail = false;
    const act = idempotentAction(async (_p: { a: number }, key: string) => {
      sent.push(key);
      if (fail) throw new ApiError('422', '账户余额不足', 422);
      return key;
    }, keys());
    await act({ a: 1 });
    await act({ a: 1 });
    fail = true;
    await expect(act({ a: 1 })).rejects.toThrow('余额不足');
    await expect(act({ a: 1 })).rejects.toThrow();
    expect(sent).toEqual(['key-1', 'key-2', 'key-3', 'key-4']);
  });

  it('a click after a timeout, a network error or a still-running answer repeats the same action’s key', async () => {
    const sent: string[] = [];
    const outcomes: unknown[] = [
      new ApiError('TIMEOUT', '请求超时', 0),
      new ApiError('NETWORK', '网络错误', 0),
      new ApiError(IN_FLIGHT, '请求正在处理中，请稍后重试', 409),
      'done',
    ];
    const act = idempotentAction(async (_p: object, key: string) => {
      sent.push(key);
      const next = outcomes.shift();
      if (next instanceof Error) throw next;
      return next;
    }, keys());
    for (let i = 0; i < 3; i++) await expect(act({ machineId: 7 })).rejects.toBeInstanceOf(ApiError);
    expect(await act({ machineId: 7 })).toBe('done');
    expect(sent).toEqual(['key-1', 'key-1', 'key-1', 'key-1']);
    // The answered action is over: the next click buys anew.
    outcomes.push('again');
    await act({ machineId: 7 });
    expect(sent.at(-1)).toBe('key-2');
  });

  it('a click with other input after a timeout is another action with its own key', async () => {
    const sent: string[] = [];
    const act = idempotentAction(async (_p: object, key: string) => {
      sent.push(key);
      throw new ApiError('TIMEOUT', '请求超时', 0);
    }, keys());
    await expect(act({ duration: 1 })).rejects.toThrow();
    await expect(act({ duration: 2 })).rejects.toThrow();
    await expect(act({ duration: 2 })).rejects.toThrow();
    expect(sent).toEqual(['key-1', 'key-2', 'key-2']);
  });

  it('tells unknown outcomes from answers', () => {
    expect(outcomeUnknown(new ApiError('TIMEOUT', 'x', 0))).toBe(true);
    expect(outcomeUnknown(new ApiError(IN_FLIGHT, 'x', 409))).toBe(true);
    expect(outcomeUnknown(new ApiError('409', 'x', 409))).toBe(false);
    expect(outcomeUnknown(new ApiError('500', 'x', 500))).toBe(false);
    expect(outcomeUnknown(new Error('x'))).toBe(false);
  });
});

describe('api client with an idempotency key', () => {
  const envelope = (status: number, body: object, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers });
  const ok = { success: true, code: '200', message: 'ok', data: { id: 1 } };

  it('sends the key as Idempotency-Key, and none without one', async () => {
    const fetch = vi.fn(async (_u: string, _i: RequestInit) => envelope(200, ok));
    vi.stubGlobal('fetch', fetch);
    await api.post('/gpu/instance/create', { a: 1 }, { idempotencyKey: 'abcdefgh1234' });
    await api.post('/gpu/instance/create', { a: 1 });
    const headers = fetch.mock.calls.map((c) => c[1].headers as Record<string, string>);
    expect(headers[0]?.['Idempotency-Key']).toBe('abcdefgh1234');
    expect(headers[1]?.['Idempotency-Key']).toBeUndefined();
  });

  it('retries a lost connection and a still-running answer on its own, with the same key', async () => {
    vi.useFakeTimers();
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () =>
        envelope(
          409,
          { success: false, code: '409', message: '请求正在处理中，请稍后重试', data: null },
          {
            'retry-after': '1',
          },
        ),
      () => envelope(200, ok),
    ];
    const fetch = vi.fn(async (_u: string, _i: RequestInit) => (answers.shift() as () => Response)());
    vi.stubGlobal('fetch', fetch);
    const call = api.post(
      '/v2/package-billing/manual-renewal',
      { instanceId: 1 },
      { idempotencyKey: 'key-retry-1' },
    );
    await vi.runAllTimersAsync();
    expect(await call).toEqual({ id: 1 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls.map((c) => (c[1].headers as Record<string, string>)['Idempotency-Key'])).toEqual([
      'key-retry-1',
      'key-retry-1',
      'key-retry-1',
    ]);
  });

  it('gives up after its retries with IN_FLIGHT, and never retries calls without a key or real answers', async () => {
    vi.useFakeTimers();
    const inFlight = () =>
      envelope(
        409,
        { success: false, code: '409', message: '请求正在处理中，请稍后重试', data: null },
        {
          'retry-after': '1',
        },
      );
    let fetch = vi.fn(async (_u: string, _i: RequestInit) => inFlight());
    vi.stubGlobal('fetch', fetch);
    const call = api.post('/x', {}, { idempotencyKey: 'key-retry-2' });
    const settled = expect(call).rejects.toMatchObject({ code: IN_FLIGHT, status: 409 });
    await vi.runAllTimersAsync();
    await settled;
    expect(fetch).toHaveBeenCalledTimes(3);

    fetch = vi.fn(async () => inFlight());
    vi.stubGlobal('fetch', fetch);
    await expect(api.post('/x', {})).rejects.toMatchObject({ code: IN_FLIGHT });
    expect(fetch).toHaveBeenCalledTimes(1);

    fetch = vi.fn(async () =>
      envelope(422, { success: false, code: '422', message: '余额不足', data: null }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(api.post('/x', {}, { idempotencyKey: 'key-retry-3' })).rejects.toMatchObject({
      code: '422',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
