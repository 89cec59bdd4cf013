import { describe, expect, it } from 'vitest';
import { filterGroups, groupOperations, typeOf, UNTAGGED } from './openapi';
import { DOC_FIXTURE } from './test-fixture';

describe('groupOperations', () => {
  const groups = groupOperations(DOC_FIXTURE);
  const op = (key: string) => groups.flatMap((g) => g.operations).find((o) => o.key === key);

  it('groups by tag in the document order, drops empty tags and back-office routes, puts untagged last', () => {
    expect(groups.map((g) => [g.name, g.operations.map((o) => o.key)])).toEqual([
      ['instances', ['GET /api/gpu/instances', 'POST /api/gpu/instance/release']],
      ['billing', ['GET /api/user/balance']],
      [UNTAGGED, ['POST /api/user/change-password']],
    ]);
    expect(groups[0]?.description).toBe('创建、开关机、释放容器实例');
  });

  it('reads access, parameters, examples (example, examples) and errors', () => {
    const list = op('GET /api/gpu/instances');
    expect(list?.access).toBe('read');
    expect(list?.parameters).toEqual([
      { name: 'page', in: 'query', required: false, type: 'integer', description: '页码' },
      { name: 'status', in: 'query', required: false, type: '"RUNNING" | "STOPPED"', description: '' },
    ]);
    expect(list?.response).toEqual({
      example: { success: true, code: '200', message: '成功', data: { list: [], total: 0 } },
    });
    const release = op('POST /api/gpu/instance/release');
    expect(release?.request).toEqual({ example: { instanceId: 42 } });
    expect(release?.sample).toBe('curl -X POST https://gpu.example/api/gpu/instance/release');
    expect(list?.sample).toBe('');
    expect(release?.response).toBeNull();
    expect(release?.errors).toEqual([
      { status: 404, errorCode: 'instances.not_found', message: '实例不存在' },
      { status: 403, errorCode: 'auth.token_scope', message: '令牌没有实例管理权限' },
    ]);
  });

  it('falls back to the top-level fields of a referenced schema, and to nothing when fields are missing', () => {
    const balance = op('GET /api/user/balance');
    expect(balance?.access).toBeUndefined();
    expect(balance?.errors).toEqual([]);
    expect(balance?.response).toEqual({
      fields: [
        { name: 'available', required: true, type: 'integer', description: '可用余额（分）' },
        { name: 'frozen', required: false, type: 'integer', description: '' },
      ],
    });
    expect(op('POST /api/user/change-password')).toMatchObject({
      access: 'session',
      parameters: [],
      request: null,
    });
  });

  it('ignores an unknown access and malformed errors', () => {
    const [group] = groupOperations({
      paths: {
        '/x': {
          get: { tags: ['t'], 'x-access': 'admin', 'x-errors': [null, { message: 'x' }, { status: 400 }] },
        },
      },
    });
    expect(group?.operations[0]?.access).toBeUndefined();
    expect(group?.operations[0]?.errors).toEqual([{ status: 400, errorCode: '', message: '' }]);
    expect(groupOperations({})).toEqual([]);
  });
});

describe('typeOf', () => {
  it('names arrays, unions, nullables and constants', () => {
    expect(typeOf({}, { type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(typeOf({}, { anyOf: [{ type: 'integer' }, { type: 'null' }] })).toBe('integer | null');
    expect(typeOf({}, { type: 'string', nullable: true })).toBe('string | null');
    expect(typeOf({}, { const: 'HOURLY' })).toBe('"HOURLY"');
    expect(typeOf({}, undefined)).toBe('');
  });
});

describe('filterGroups', () => {
  const groups = groupOperations(DOC_FIXTURE);
  it('keeps the operations whose path or summary matches, case-insensitively, and their groups only', () => {
    expect(filterGroups(groups, 'RELEASE').map((g) => g.operations.map((o) => o.key))).toEqual([
      ['POST /api/gpu/instance/release'],
    ]);
    expect(filterGroups(groups, '余额').map((g) => g.name)).toEqual(['billing']);
    expect(filterGroups(groups, '  ')).toBe(groups);
    expect(filterGroups(groups, 'nothing-like-this')).toEqual([]);
  });
});
