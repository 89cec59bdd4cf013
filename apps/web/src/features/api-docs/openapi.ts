import type { RouteAccess } from '@gpu/shared/access-tokens';

/**
 * What the API 文档 page reads of the server's OpenAPI 3 document (GET /api/docs/json): every
 * field optional, since the page must still show what there is when the document lacks one
 * (`x-access`, `x-errors`, examples are this platform's additions, issue 32).
 */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  example?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  $ref?: string;
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | undefined>;
}

interface RawParameter {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  $ref?: string;
}

interface RawOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: RawParameter[];
  requestBody?: { content?: Record<string, MediaType | undefined> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, MediaType | undefined> } | undefined
  >;
  'x-access'?: unknown;
  'x-errors'?: unknown;
  'x-codeSamples'?: unknown;
}

export interface OpenApiDocument {
  info?: { title?: string; description?: string };
  tags?: { name?: string; description?: string }[];
  paths?: Record<string, Record<string, RawOperation | undefined> | undefined>;
  components?: { schemas?: Record<string, Schema | undefined>; parameters?: Record<string, RawParameter> };
}

export interface DocParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
}

/** A top-level property of a schema, for a body or answer the document gives no example of. */
export type DocField = Omit<DocParameter, 'in'>;

export interface DocError {
  status: number | string;
  errorCode: string;
  message: string;
}

/** A body: the document's example when it has one, else the schema's top-level fields. */
export type DocBody = { example: unknown } | { fields: DocField[] } | null;

export interface DocOperation {
  key: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  deprecated: boolean;
  /** What a token needs; undefined when the document does not say. */
  access?: RouteAccess;
  parameters: DocParameter[];
  request: DocBody;
  response: DocBody;
  errors: DocError[];
  /** A ready command (the document's first `x-codeSamples` entry), or ''. */
  sample: string;
}

export interface DocGroup {
  name: string;
  description: string;
  operations: DocOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ACCESS: readonly string[] = ['read', 'instances', 'billing', 'session'];
const JSON_TYPE = 'application/json';
/** The back office's routes: never callable with a customer's token or session, so not shown here. */
const ADMIN_PATH = /^\/api\/admin(\/|$)/;
/** The group of an operation without a tag. */
export const UNTAGGED = '';

function resolve<T extends { $ref?: string }>(doc: OpenApiDocument, value: T | undefined): T | undefined {
  const ref = value?.$ref;
  if (!ref) return value;
  const [, kind, name] = /^#\/components\/(schemas|parameters)\/(.+)$/.exec(ref) ?? [];
  if (!kind || !name) return value;
  return (kind === 'schemas' ? doc.components?.schemas?.[name] : doc.components?.parameters?.[name]) as
    | T
    | undefined;
}

/** A schema's type in a word or two: string, integer[], 'RUNNING' | 'STOPPED', object. */
export function typeOf(doc: OpenApiDocument, raw: Schema | undefined): string {
  const schema = resolve(doc, raw);
  if (!schema) return '';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum?.length) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return [...new Set(variants.map((v) => typeOf(doc, v)).filter(Boolean))].join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeOf(doc, schema.items) || 'any'}[]`;
  if (type) return schema.nullable ? `${type} | null` : type;
  return schema.properties ? 'object' : '';
}

function fieldsOf(doc: OpenApiDocument, raw: Schema | undefined): DocField[] {
  const schema = resolve(doc, raw);
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, prop]) => ({
    name,
    required: required.has(name),
    type: typeOf(doc, prop),
    description: resolve(doc, prop)?.description ?? '',
  }));
}

/** The example of a JSON body (`example`, the first of `examples`, the schema's), else its fields. */
function bodyOf(doc: OpenApiDocument, content: Record<string, MediaType | undefined> | undefined): DocBody {
  const media = content?.[JSON_TYPE] ?? Object.values(content ?? {})[0];
  if (!media) return null;
  if (media.example !== undefined) return { example: media.example };
  const first = Object.values(media.examples ?? {}).find((e) => e?.value !== undefined);
  if (first) return { example: first.value };
  const schema = resolve(doc, media.schema);
  if (schema?.example !== undefined) return { example: schema.example };
  const fields = fieldsOf(doc, schema);
  return fields.length > 0 ? { fields } : null;
}

function parametersOf(doc: OpenApiDocument, raw: RawParameter[] | undefined): DocParameter[] {
  return (raw ?? []).flatMap((p) => {
    const param = resolve(doc, p);
    if (!param?.name) return [];
    return [
      {
        name: param.name,
        in: param.in ?? '',
        required: Boolean(param.required),
        type: typeOf(doc, param.schema),
        description: param.description ?? resolve(doc, param.schema)?.description ?? '',
      },
    ];
  });
}

function errorsOf(raw: unknown): DocError[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e: unknown) => {
    if (typeof e !== 'object' || e === null) return [];
    const { status, errorCode, message } = e as Record<string, unknown>;
    if (typeof status !== 'number' && typeof status !== 'string') return [];
    return [
      {
        status,
        errorCode: typeof errorCode === 'string' ? errorCode : '',
        message: typeof message === 'string' ? message : '',
      },
    ];
  });
}

function sampleOf(raw: unknown): string {
  if (!Array.isArray(raw)) return '';
  const first = raw.find((s: unknown) => typeof (s as { source?: unknown } | null)?.source === 'string');
  return first ? (first as { source: string }).source : '';
}

function operationOf(doc: OpenApiDocument, method: string, path: string, op: RawOperation): DocOperation {
  const access = op['x-access'];
  return {
    key: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? '',
    description: op.description ?? '',
    deprecated: Boolean(op.deprecated),
    access: typeof access === 'string' && ACCESS.includes(access) ? (access as RouteAccess) : undefined,
    parameters: parametersOf(doc, op.parameters),
    request: bodyOf(doc, op.requestBody?.content),
    response: bodyOf(doc, op.responses?.['200']?.content),
    errors: errorsOf(op['x-errors']),
    sample: sampleOf(op['x-codeSamples']),
  };
}

/**
 * The document's customer operations (not /api/admin) grouped by their first tag: the groups the
 * document lists first, in its order, then the other tags as they come, then the untagged ones.
 */
export function groupOperations(doc: OpenApiDocument): DocGroup[] {
  const groups = new Map<string, DocGroup>();
  const groupOf = (name: string) => {
    let group = groups.get(name);
    if (!group) {
      group = { name, description: '', operations: [] };
      groups.set(name, group);
    }
    return group;
  };
  for (const tag of doc.tags ?? []) {
    if (tag.name) groupOf(tag.name).description = tag.description ?? '';
  }
  const untagged: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (ADMIN_PATH.test(path)) continue;
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const operation = operationOf(doc, method, path, op);
      const tag = op.tags?.[0];
      if (tag) groupOf(tag).operations.push(operation);
      else untagged.push(operation);
    }
  }
  const list = [...groups.values()].filter((g) => g.operations.length > 0);
  if (untagged.length > 0) list.push({ name: UNTAGGED, description: '', operations: untagged });
  return list;
}

/** The groups with only the operations whose method, path or summary contains `query`. */
export function filterGroups(groups: DocGroup[], query: string): DocGroup[] {
  const q = query.trim().toLowerCase();
  if (!q) return groups;
  return groups
    .map((g) => ({
      ...g,
      operations: g.operations.filter((op) =>
        [op.key, op.summary].some((text) => text.toLowerCase().includes(q)),
      ),
    }))
    .filter((g) => g.operations.length > 0);
}
