import type { OpenApiDocument } from './openapi';

/**
 * A small OpenAPI document as the server serves it (issue 32): tags with descriptions, x-access,
 * x-errors and examples on some operations, and operations lacking each of them.
 */
export const DOC_FIXTURE: OpenApiDocument = {
  info: {
    title: 'GPU API',
    description:
      '客户 API。\n\n## 认证\n\n请求头带上 `Authorization`，**只显示一次**。\n\n```\nAuthorization: Bearer gpu_…\n```\n\n| HTTP | errorCode |\n| --- | --- |\n| 404 | `instances.not_found` |\n',
  },
  tags: [
    { name: 'instances', description: '创建、开关机、释放容器实例' },
    { name: 'billing', description: '余额、账单与充值' },
    { name: 'empty', description: '没有接口的分组不显示' },
  ],
  components: {
    schemas: {
      Balance: {
        type: 'object',
        required: ['available'],
        properties: {
          available: { type: 'integer', description: '可用余额（分）' },
          frozen: { type: 'integer' },
        },
      },
    },
  },
  paths: {
    '/api/gpu/instances': {
      get: {
        tags: ['instances'],
        summary: '实例列表',
        'x-access': 'read',
        parameters: [
          { name: 'page', in: 'query', required: false, schema: { type: 'integer' }, description: '页码' },
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['RUNNING', 'STOPPED'] } },
        ],
        responses: {
          '200': {
            content: {
              'application/json': {
                example: { success: true, code: '200', message: '成功', data: { list: [], total: 0 } },
              },
            },
          },
        },
      },
    },
    '/api/gpu/instance/release': {
      post: {
        tags: ['instances'],
        summary: '释放实例',
        description: '释放后数据无法恢复。',
        'x-access': 'instances',
        requestBody: {
          content: { 'application/json': { examples: { one: { value: { instanceId: 42 } } } } },
        },
        responses: { '200': { description: '成功' } },
        'x-codeSamples': [
          {
            lang: 'Shell',
            label: 'curl',
            source: 'curl -X POST https://gpu.example/api/gpu/instance/release',
          },
        ],
        'x-errors': [
          { status: 404, errorCode: 'instances.not_found', message: '实例不存在' },
          { status: 403, errorCode: 'auth.token_scope', message: '令牌没有实例管理权限' },
        ],
      },
    },
    '/api/user/balance': {
      get: {
        tags: ['billing'],
        summary: '账户余额',
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Balance' } } } },
        },
      },
    },
    '/api/admin/users': {
      get: { tags: ['billing'], summary: '用户列表（后台）', 'x-access': 'session' },
    },
    '/api/user/change-password': {
      post: { summary: '修改密码', 'x-access': 'session' },
    },
  },
};
