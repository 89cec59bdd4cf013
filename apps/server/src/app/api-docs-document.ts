import { errorEnvelopeSchema, type RouteAccess } from '@gpu/shared';
import { sample } from 'openapi-sampler';
import { z } from 'zod';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../modules/idempotency/index.ts';
import {
  authErrors,
  type DocError,
  errorCatalogue,
  IDEMPOTENCY_ERRORS,
  tagErrors,
  uniqueErrors,
  VALIDATION_ERROR,
} from './api-docs-errors.ts';
import { accessLine, infoDescription, TAG_DESCRIPTIONS } from './api-docs-text.ts';

type Schema = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: Schema;
  example?: unknown;
  description?: string;
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
export interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
  security?: Record<string, string[]>[];
  'x-access'?: RouteAccess;
  'x-errors'?: DocError[];
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description: string }[];
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

/** Paths of the full document that the customer document leaves out (the back office's). */
export const isCustomerPath = (path: string) => !path.startsWith('/api/admin/') && path !== '/api/admin';

const READ_METHODS = new Set(['get', 'head']);
const FAILURE_REF = '#/components/schemas/Failure';
const STATUS_TEXT: Record<number, string> = {
  400: '参数无效',
  401: '未登录或令牌无效',
  403: '无权执行',
  404: '不存在',
  409: '状态冲突',
  413: '请求过大',
  422: '无法执行',
  429: '请求过于频繁',
  502: '主机操作失败',
  503: '暂时不可用',
};

/** Example values of path and query parameters that their schemas cannot tell (ids, numbers). */
const PARAM_EXAMPLES: Record<string, unknown> = {
  id: 1024,
  uuid: 1024,
  instance_uuid: 1024,
  no: 'R202611261030000001',
  hash: '0x5f2c9d1e8a7b6c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d',
  waitFor: 'RUNNING',
  timeout: 60,
};

/** A sample of `schema`; a request's leaves out what is optional (the smallest valid call). */
const sampleOf = (schema: Schema | undefined, doc: OpenApiDocument, request = false) =>
  schema ? sample(schema as never, { skipNonRequired: request, quiet: true }, doc) : undefined;

/**
 * Schemas as OpenAPI 3.0 reads them: zod's JSON Schema `examples: [x]` becomes `example: x`,
 * and the ±Number.MAX_SAFE_INTEGER bounds zod writes on every integer go (noise to a reader,
 * and the sampler would show them as the example).
 */
function tidySchemas(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidySchemas(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Schema;
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  if (Array.isArray(o.examples)) {
    o.example = o.examples[0];
    delete o.examples;
  }
  for (const value of Object.values(o)) tidySchemas(value);
}

function failureSchema(): Schema {
  const schema = z.toJSONSchema(errorEnvelopeSchema, { target: 'openapi-3.0' }) as Schema;
  tidySchemas(schema);
  return schema;
}

/** A success sample reads like a real answer: the envelope's own fields are fixed. */
function successExample(schema: Schema | undefined, doc: OpenApiDocument): unknown {
  const value = sampleOf(schema, doc);
  if (value && typeof value === 'object' && 'success' in value) {
    return { ...value, success: true, code: '200', message: '成功' };
  }
  return value;
}

const failure = (e: DocError) => ({
  success: false,
  code: String(e.status),
  message: e.message,
  data: null,
  errorCode: e.errorCode,
});

/** What an operation may answer besides success: common, validation, idempotency, its tag's. */
function operationErrors(method: string, op: Operation): DocError[] {
  const access = op['x-access'];
  const signedIn = access !== undefined;
  const isRead = READ_METHODS.has(method);
  const hasInput =
    op.requestBody !== undefined || (op.parameters ?? []).some((p) => p.in === 'query' || p.in === 'path');
  return uniqueErrors([
    ...(access ? authErrors(access) : []),
    ...(hasInput ? [VALIDATION_ERROR] : []),
    ...(signedIn && !isRead ? IDEMPOTENCY_ERRORS : []),
    ...tagErrors(op.tags?.[0], isRead),
  ]);
}

/** A curl command for the operation, with the guide's GPU_API and GPU_TOKEN variables. */
function curlSample(method: string, path: string, op: Operation, body: unknown): string {
  const params = op.parameters ?? [];
  let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    String(params.find((p) => p.in === 'path' && p.name === name)?.example ?? name),
  );
  const query = params
    .filter((p) => p.in === 'query' && p.required && p.example !== undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example))}`);
  if (query.length > 0) url += `?${query.join('&')}`;
  const lines = [`curl -sS -X ${method.toUpperCase()} "$GPU_API${url}"`];
  if (op['x-access'] !== undefined) lines.push('-H "Authorization: Bearer $GPU_TOKEN"');
  if (op['x-access'] !== undefined && !READ_METHODS.has(method))
    lines.push(`-H "${IDEMPOTENCY_HEADER}: $(uuidgen)"`);
  if (body !== undefined) {
    lines.push("-H 'Content-Type: application/json'");
    lines.push(`-d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(' \\\n  ');
}

function describeOperation(doc: OpenApiDocument, path: string, method: string, op: Operation): Operation {
  const access = op['x-access'];
  const parameters = (op.parameters ?? []).map((p) => ({
    ...p,
    example: PARAM_EXAMPLES[p.name] ?? p.example ?? sampleOf(p.schema, doc),
  }));
  if (access !== undefined && !READ_METHODS.has(method)) {
    parameters.push({
      in: 'header',
      name: IDEMPOTENCY_HEADER,
      required: false,
      description: '幂等键：同一个 key 重试只执行一次并返回第一次的应答',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
      example: '3f1c2a9e-7b4d-4e0a-9c55-2d8e6b1f0a47',
    });
  }
  const described: Operation = { ...op, parameters: parameters.length > 0 ? parameters : undefined };
  let bodyExample: unknown;
  if (op.requestBody) {
    const content: Record<string, Media> = {};
    for (const [type, media] of Object.entries(op.requestBody.content)) {
      // The body's own example (zod meta, see api-docs.ts) wins over a generated one.
      const { examples, ...rest } = media;
      const given = media.example ?? Object.values(examples ?? {})[0]?.value ?? media.schema?.example;
      const example = given ?? sampleOf(media.schema, doc, true);
      if (type === 'application/json') bodyExample = example;
      content[type] = { ...rest, example };
    }
    described.requestBody = { ...op.requestBody, content };
  }
  const responses: Operation['responses'] = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const content: Record<string, Media> = {};
    for (const [type, media] of Object.entries(response.content ?? {}))
      content[type] = { ...media, example: successExample(media.schema, doc) };
    responses[status] = {
      ...response,
      description: status === '200' ? '成功' : response.description,
      content,
    };
  }
  const errors = operationErrors(method, described);
  const byStatus = new Map<number, DocError[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? '失败',
      content: {
        'application/json': {
          schema: { $ref: FAILURE_REF },
          examples: Object.fromEntries(
            list.map((e, i) => [
              `${e.errorCode}${i > 0 ? `#${i}` : ''}`,
              { summary: e.message, value: failure(e) },
            ]),
          ),
        },
      },
    };
  }
  described.responses = responses;
  described['x-errors'] = errors;
  described.description = [op.description, access ? accessLine(access) : '无需登录。']
    .filter(Boolean)
    .join('\n\n');
  described['x-codeSamples'] = [
    { lang: 'Shell', label: 'curl', source: curlSample(method, path, described, bodyExample) },
  ];
  return described;
}

/**
 * The customer document from the full one (which also maps the back office): the customer
 * paths, each operation with its access, errors and examples, the introduction and the
 * error-code catalogue. Computed once per process (the routes do not change after start).
 */
export function customerDocument(fullDocument: OpenApiDocument): OpenApiDocument {
  // A copy: the full document is the one Swagger caches and the admins read.
  const full = structuredClone(fullDocument);
  tidySchemas(full);
  const paths: OpenApiDocument['paths'] = {};
  const usedTags = new Set<string>();
  for (const [path, ops] of Object.entries(full.paths)) {
    if (!isCustomerPath(path)) continue;
    paths[path] = {};
    for (const [method, op] of Object.entries(ops)) {
      for (const tag of op.tags ?? []) usedTags.add(tag);
      paths[path][method] = describeOperation(full, path, method, op);
    }
  }
  const ordered = [
    ...Object.keys(TAG_DESCRIPTIONS).filter((t) => usedTags.has(t)),
    ...[...usedTags].filter((t) => !(t in TAG_DESCRIPTIONS)).sort(),
  ];
  return {
    ...full,
    info: { ...full.info, description: infoDescription(errorCatalogue()) },
    tags: ordered.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    components: {
      ...full.components,
      schemas: {
        ...full.components?.schemas,
        Failure: failureSchema(),
      },
    },
    paths,
  };
}
