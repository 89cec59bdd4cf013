import fc from 'fast-check';

/**
 * Hostile requests generated from the OpenAPI document: for every operation, bodies and queries
 * that follow its schema in most fields (so they get past validation and reach the rules, the
 * caches and the statements built once) with a few fields replaced by what an attacker sends:
 * wrong types, nulls, huge and negative numbers, NUL bytes, `__proto__`/`constructor` keys,
 * 1 MB strings, deep nesting, extra fields.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HostileRequest {
  method: Method;
  url: string;
  /** JSON text (written by hand: it may hold `__proto__` keys) or a form body. */
  payload?: string;
  contentType?: string;
}

/** A JSON value, with keys that JSON.parse would turn into prototype changes kept as text. */
type Json = null | boolean | number | string | Json[] | { entries: Array<[string, Json]> } | { raw: string };

const MEGABYTE = 'A'.repeat(1_000_000);

const hostileScalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(-1, 0, -0.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 63, -(2 ** 31) - 1, 2 ** 31, 1e-9, 3.7),
  fc.integer(),
  fc.constantFrom(
    '',
    'a\u0000b',
    '\u0000',
    '\u001b[31m',
    MEGABYTE,
    'x'.repeat(70_000),
    '1',
    '-1',
    '1e3',
    '0x10',
    'NaN',
    'Infinity',
    'null',
    'true',
    '2026-02-30',
    '__proto__',
    'constructor',
    "' or 1=1 --",
    '{{7*7}}',
    '../../etc/passwd',
    '測試🚀\u202e\ud800',
  ),
  fc.string({ maxLength: 20 }),
);

const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

/** Any hostile value: scalars, arrays, objects whose keys may be `__proto__` and friends, depth. */
const hostileValue: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...DANGEROUS_KEYS), fc.string({ maxLength: 8 })), tie('v')), {
        maxLength: 3,
      })
      .map((entries) => ({ entries })),
  ),
})).v;

const isObject = (v: Json): v is { entries: Array<[string, Json]> } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'entries' in v;

/** Nesting deeper than any parser's recursion should follow, as ready JSON text. */
const DEEP: Json = { raw: `${'{"a":'.repeat(3000)}"x"${'}'.repeat(3000)}` };

/** JSON text of a value; object keys are written as given, `__proto__` included. */
export function jsonText(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`;
  if ('raw' in v) return v.raw;
  return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(',')}}`;
}

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type[0] : s.type);

/** A value the schema accepts, as far as a JSON schema can say (refinements may still refuse it). */
function validValue(s: JsonSchema, depth = 0): fc.Arbitrary<Json> {
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => validValue(v, depth)));
  if (s.enum?.length) return fc.constantFrom(...(s.enum as Json[]));
  const base = ((): fc.Arbitrary<Json> => {
    switch (typeOf(s)) {
      case 'integer': {
        const min = Math.max(s.minimum ?? -1000, -1_000_000);
        const max = Math.min(s.maximum ?? 1_000_000, 1_000_000);
        // Ids and counts: small values name the rows the test world holds.
        return fc.oneof(
          fc.integer({ min: Math.max(min, 1), max: Math.max(Math.min(max, 12), min) }),
          fc.integer({ min, max }),
        );
      }
      case 'number': {
        const min = Math.max(s.minimum ?? -1000, -1_000_000);
        const max = Math.min(s.maximum ?? 1_000_000, 1_000_000);
        return fc
          .double({ min, max, noNaN: true, noDefaultInfinity: true })
          .map((n) => Math.round(n * 100) / 100);
      }
      case 'boolean':
        return fc.boolean();
      case 'string': {
        if (s.format === 'date') return fc.constantFrom('2026-01-01', '2026-11-25', '2025-12-31');
        if (s.format === 'email') return fc.constantFrom('a@example.com', 'ops@gpu.example.cn');
        const maxLength = Math.min(s.maxLength ?? 40, 60);
        if (s.pattern) {
          // fast-check cannot generate lookaheads (the host-name pattern): a plain name instead.
          const pattern = s.pattern.includes('(?=') ? '^[a-z0-9]{1,20}(\\.[a-z]{2,5})?$' : s.pattern;
          return fc
            .stringMatching(new RegExp(pattern))
            .filter((x) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? 10_000));
        }
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(maxLength, s.minLength ?? 0) });
      }
      case 'array': {
        if (depth > 3 || !s.items) return fc.constant([]);
        return fc.array(validValue(s.items, depth + 1), {
          minLength: s.minItems ?? 0,
          maxLength: Math.min(s.maxItems ?? 3, 3),
        });
      }
      case 'object':
        return depth > 3 ? fc.constant({ entries: [] }) : validObject(s, depth + 1);
      default:
        return hostileScalar;
    }
  })();
  return s.nullable ? fc.oneof(base, fc.constant(null)) : base;
}

function validObject(s: JsonSchema, depth: number): fc.Arbitrary<Json> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  if (props.length === 0) return fc.constant({ entries: [] });
  return fc
    .tuple(...props.map(([name, p]) => fc.tuple(fc.constant(name), validValue(p, depth), fc.nat(3))))
    .map((fields) => ({
      entries: fields
        .filter(([name, , keep]) => required.has(name) || keep > 0)
        .map(([name, v]) => [name, v] as [string, Json]),
    }));
}

/** A body that follows the schema with some fields spoiled and hostile keys added. */
function hostileBody(s: JsonSchema | undefined): fc.Arbitrary<Json> {
  if (!s) return hostileValue;
  return fc
    .tuple(
      validValue(s),
      fc.array(fc.tuple(fc.nat(), hostileValue), { maxLength: 3 }),
      fc.array(fc.tuple(fc.constantFrom(...DANGEROUS_KEYS, 'extra', ''), hostileValue), { maxLength: 2 }),
      fc.nat(9),
      hostileValue,
    )
    .map(([valid, spoil, extra, shape, whole]) => {
      if (shape === 0) return whole;
      if (shape === 1) return DEEP;
      if (!isObject(valid)) return valid;
      const entries = [...valid.entries];
      for (const [i, v] of spoil) {
        if (entries.length) entries[i % entries.length] = [entries[i % entries.length]?.[0] as string, v];
      }
      return { entries: [...entries, ...extra] };
    });
}

const urlValue: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 12 }).map(String),
  fc.constantFrom('0', '-1', '1.5', '99999999999999999999', '2147483648', '0x10', '1e2', ' 1', 'abc', ''),
  hostileScalar.map((v) => (v === null ? 'null' : String(v)).slice(0, 3000)),
);

/** A query value for a parameter: valid for its schema, or hostile. */
function queryValue(s: JsonSchema | undefined): fc.Arbitrary<string> {
  if (!s) return urlValue;
  return fc.oneof(
    validValue(s).map((v) => (v !== null && typeof v === 'object' ? jsonText(v) : String(v))),
    urlValue,
  );
}

/** Percent-encoding that survives lone surrogates (sent as U+FFFD, as a browser would). */
const enc = (v: string) => encodeURIComponent(v.replace(/\p{Surrogate}/gu, '\ufffd'));

/** `n` hostile requests to one operation of the OpenAPI document, drawn with `seed`. */
export function hostileRequests(
  path: string,
  method: Method,
  op: Operation,
  n: number,
  seed: number,
): HostileRequest[] {
  const params = op.parameters ?? [];
  const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
  const query = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const arbitrary = fc.record({
    pathValues: fc.tuple(...pathNames.map(() => urlValue), fc.constant('')),
    query: fc.array(
      fc.oneof(
        ...(query.length ? query.map((p) => fc.tuple(fc.constant(p.name), queryValue(p.schema))) : []),
        fc.tuple(fc.constantFrom('__proto__', 'constructor[prototype][x]', '__proto__[admin]'), urlValue),
      ),
      { maxLength: query.length + 1 },
    ),
    body: hostileBody(bodySchema),
    form: fc.nat(7),
  });
  return fc.sample(arbitrary, { numRuns: n, seed }).map((r) => {
    let i = 0;
    const filled = path.replace(/\{[^}]+\}/g, () => enc(r.pathValues[i++] ?? ''));
    const qs = r.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    const url = qs ? `${filled}?${qs}` : filled;
    if (!hasBody) return { method, url };
    if (r.form === 0) {
      const entries = isObject(r.body) ? r.body.entries : [];
      const form = entries.map(([k, v]) => `${enc(k)}=${enc(jsonText(v).slice(0, 5000))}`).join('&');
      return { method, url, payload: form, contentType: 'application/x-www-form-urlencoded' };
    }
    return { method, url, payload: jsonText(r.body), contentType: 'application/json' };
  });
}
