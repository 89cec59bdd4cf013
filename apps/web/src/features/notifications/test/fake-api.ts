import type {
  Notification,
  NotificationEvent,
  NotificationSettings,
  Webhook,
  WebhookTestResult,
} from '@gpu/shared/notifications';
import { type ApiAnswer, fail, ok } from '../../../test/api-stub';

/** A request the fake saw: method, path, query and JSON body. */
export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * An in-memory server of the notification routes (the contract of packages/shared/src/
 * notifications.ts), for stubApi: tests set its state, read `calls` and make a route fail.
 */
export function fakeNotificationsApi() {
  const state = {
    messages: [] as Notification[],
    settings: null as NotificationSettings | null,
    webhooks: [] as Webhook[],
    nextId: 100,
    /** "METHOD /path" → an answer that replaces the fake's. */
    failures: {} as Record<string, ApiAnswer>,
    testAnswer: { ok: true, responseStatus: 200, responseExcerpt: 'ok', durationMs: 12 } as WebhookTestResult,
    calls: [] as SeenCall[],
  };

  const routes = (url: URL, init: RequestInit | undefined): ApiAnswer | undefined => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    state.calls.push({ method, path: url.pathname, query: url.searchParams, body });
    const failure = state.failures[`${method} ${url.pathname}`];
    if (failure) return failure;
    const p = url.pathname;
    if (method === 'GET' && p === '/api/user/notifications') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('size') ?? 10);
      const onlyUnread = url.searchParams.get('unread') === 'true';
      const all = [...state.messages].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const chosen = onlyUnread ? all.filter((m) => !m.read) : all;
      return ok({
        list: chosen.slice((page - 1) * size, page * size),
        total: chosen.length,
        unread: all.filter((m) => !m.read).length,
        page,
        size,
      });
    }
    if (method === 'POST' && p === '/api/user/notifications/read') {
      const ids = (body as { ids?: number[] }).ids;
      for (const m of state.messages) if (!ids || ids.includes(m.id)) m.read = true;
      return ok(null);
    }
    if (p === '/api/user/notification-settings') {
      if (method === 'PUT') state.settings = body as NotificationSettings;
      return state.settings ? ok(state.settings) : fail('未找到', 404);
    }
    if (method === 'GET' && p === '/api/user/webhooks') return ok(state.webhooks);
    if (method === 'POST' && p === '/api/user/webhooks') {
      const id = state.nextId++;
      const hook: Webhook = {
        id,
        url: (body as { url: string }).url,
        secretHint: 'whsec_****3f9a',
        enabled: true,
        createdAt: new Date().toISOString(),
        deliveries: [],
      };
      state.webhooks.push(hook);
      return ok({ ...hook, secret: 'whsec_5d1c0e7b2a9f44c1b8e63f9a' });
    }
    const one = /^\/api\/user\/webhooks\/(\d+)$/.exec(p);
    if (method === 'PUT' && one) {
      const hook = state.webhooks.find((h) => h.id === Number(one[1]));
      if (!hook) return fail('回调地址不存在', 404);
      hook.enabled = (body as { enabled: boolean }).enabled;
      return ok(hook);
    }
    const test = /^\/api\/user\/webhooks\/(\d+)\/test$/.exec(p);
    if (method === 'POST' && test) {
      const hook = state.webhooks.find((h) => h.id === Number(test[1]));
      if (!hook) return fail('Webhook 不存在', 404);
      // As the server: a test is sent once and answered, never retried nor logged.
      return ok(state.testAnswer);
    }
    const del = /^\/api\/user\/webhooks\/(\d+)$/.exec(p);
    if (method === 'DELETE' && del) {
      state.webhooks = state.webhooks.filter((h) => h.id !== Number(del[1]));
      return ok(null);
    }
    return undefined;
  };

  return {
    state,
    routes,
    callsTo: (method: string, path: string) =>
      state.calls.filter((c) => c.method === method && c.path === path),
  };
}

let seq = 1;
/** A message as the server lists it; `minutesAgo` orders them (newest first). */
export function message(over: Partial<Notification> & { minutesAgo?: number } = {}): Notification {
  const { minutesAgo = seq, ...rest } = over;
  const id = rest.id ?? seq++;
  return {
    id,
    event: 'low_balance' as NotificationEvent,
    title: `通知 ${id}`,
    body: `正文 ${id}`,
    instanceId: null,
    read: false,
    createdAt: new Date(Date.UTC(2026, 10, 26, 6, 0) - minutesAgo * 60_000).toISOString(),
    ...rest,
  };
}
