import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, ledgerEntries } from '../modules/ledger/ledger.tables.ts';
import { postLedgerEntry } from '../modules/ledger/ledger.ts';
import { createTestApp } from '../test/test-app.ts';

/**
 * Walks every operation of the OpenAPI document and sends it malformed paths, queries and
 * bodies as a stranger, a user and an admin: no answer may be a 5xx or leave the envelope, and
 * money must not move. Values are malformed only (never a valid body), drawn with a fixed seed.
 */

type T = Awaited<ReturnType<typeof createTestApp>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** mulberry32: small, fast and the same on every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const deep = (n: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

/** Path and query values, already URL-encoded. */
const URL_VALUES = [
  '%00',
  'a%00b',
  '%01%1F%7F',
  '0x10',
  '14e0',
  '1e2',
  '-1',
  '0',
  '99999999999999999999',
  '2147483648',
  '1.5',
  '%20%201',
  '2026-13-45',
  '2026-02-30',
  encodeURIComponent('測試🚀\u202e'),
  '%E0%A4%A',
  'x'.repeat(3000),
  '%27%3B--',
];
const BODY_VALUES: unknown[] = [
  'a\u0000b',
  '\u001b[31m',
  'x'.repeat(100_000),
  '0x10',
  '14e0',
  '1e2',
  '2026-13-45',
  -1,
  -1e308,
  1e308,
  2 ** 63,
  0.0001,
  Number.MAX_SAFE_INTEGER + 2,
  ['1', '2'],
  { $gt: '' },
  deep(200),
  true,
  null,
  '測試🚀\u202e\ud800',
];
/** Whole bodies that are never valid for any operation. */
const RAW_BODIES = [
  '[]',
  'null',
  '"text"',
  '{"a":',
  '{"__proto__":{"x":1}}',
  JSON.stringify(deep(2000)),
  '{"a":"\\u0000"}',
];

/** Answers that are deliberately not the JSON envelope (file downloads, provider callbacks, the docs). */
const NOT_ENVELOPE = [/^\/api\/docs/, /^\/api\/pay\/alipay\/notify/, /\/export$/];

describe('API fuzz: malformed input to every operation', () => {
  let t: T;
  let roles: Array<[string, Record<string, string>]>;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await t.createUser();
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: user.user.id,
        kind: 'recharge',
        amount: 5_000_000,
        idempotencyKey: 'fuzz:seed',
      }),
    );
    roles = [
      ['anonymous', {}],
      ['user', user.headers],
      ['admin', await t.adminHeaders()],
    ];
  });
  afterAll(() => t.close());

  const money = async () => {
    const [ledger] = await t.db
      .select({
        n: sql<string>`count(*)::text`,
        amount: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text`,
        frozen: sql<string>`coalesce(sum(${ledgerEntries.frozenAmount}), 0)::text`,
      })
      .from(ledgerEntries);
    const [balances] = await t.db
      .select({
        available: sql<string>`coalesce(sum(${accounts.available}), 0)::text`,
        frozen: sql<string>`coalesce(sum(${accounts.frozen}), 0)::text`,
      })
      .from(accounts);
    return { ledger, balances };
  };

  it('never answers 5xx or outside the envelope, and money does not move', async () => {
    const random = rng(20_260_101);
    const pick = <V>(list: V[]) => list[Math.floor(random() * list.length)] as V;
    const doc = (
      await t.app.inject({ url: '/api/admin/docs/json', headers: await t.adminHeaders() })
    ).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const before = await money();
    const problems: string[] = [];
    let sent = 0;

    const send = async (method: Method, url: string, headers: Record<string, string>, payload?: string) => {
      sent++;
      const res = await t.app.inject({
        method,
        url,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        payload,
      });
      const where = `${method} ${url.slice(0, 120)} ${payload?.slice(0, 60) ?? ''} → ${res.statusCode}`;
      if (res.statusCode >= 500) problems.push(`${where} ${res.body.slice(0, 120)}`);
      if (NOT_ENVELOPE.some((re) => re.test(url.split('?')[0] as string)) && res.statusCode < 400) return;
      let body: Record<string, unknown> | null = null;
      try {
        body = res.json();
      } catch {
        problems.push(`${where} not JSON`);
        return;
      }
      const ok = res.statusCode < 400;
      const shape =
        body &&
        body.success === ok &&
        body.code === (ok ? '200' : String(res.statusCode)) &&
        typeof body.message === 'string' &&
        'data' in body &&
        (ok || (body.data === null && /[\u4e00-\u9fff]/.test(body.message as string)));
      if (!shape) problems.push(`${where} envelope ${res.body.slice(0, 120)}`);
    };

    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/docs')) continue;
      for (const [m, op] of Object.entries(ops)) {
        const method = m.toUpperCase() as Method;
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const bodyFields = Object.keys(schema?.properties ?? {});
        // A path with a well-formed id that names nothing, for the query and body cases.
        const basePath = path.replace(/\{[^}]+\}/g, '987654');
        for (const [, headers] of roles) {
          if (path.includes('{')) {
            for (const v of URL_VALUES) await send(method, path.replace(/\{[^}]+\}/g, v), headers);
          }
          for (const name of queryNames) {
            for (let i = 0; i < 4; i++)
              await send(method, `${basePath}?${name}=${pick(URL_VALUES)}`, headers);
            await send(method, `${basePath}?${name}=1&${name}=2`, headers);
            await send(method, `${basePath}?${name}[a]=1`, headers);
          }
          if (method === 'GET' || method === 'DELETE') continue;
          for (const field of bodyFields) {
            for (let i = 0; i < 4; i++)
              await send(method, basePath, headers, JSON.stringify({ [field]: pick(BODY_VALUES) }));
          }
          for (const raw of RAW_BODIES) await send(method, basePath, headers, raw);
        }
      }
    }

    expect(problems, problems.join('\n')).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect(await money()).toEqual(before);
    // Sequential and proportional to the number of operations: the back office adds dozens.
  }, 180_000);
});
