import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isAppError } from '../errors.ts';

export function ok<T>(data: T, message = '成功') {
  return { success: true as const, code: '200', message, data };
}

/**
 * A failure: `code` is the HTTP status as text (DESIGN §3); `errorCode` is the stable, machine
 * name of what went wrong (`instances.not_found`, `common.validation`), for scripts and the CLI.
 */
export function fail(status: number, message: string, errorCode = statusErrorCode(status)) {
  return { success: false as const, code: String(status), message, data: null, errorCode };
}

/** The error code of a failure that has only its status (Fastify's own, the router's). */
const STATUS_CODES: Record<number, string> = {
  400: 'common.bad_request',
  401: 'common.unauthorized',
  403: 'common.forbidden',
  404: 'common.not_found',
  405: 'common.method_not_allowed',
  413: 'common.too_large',
  414: 'common.uri_too_long',
  415: 'common.unsupported_media_type',
  429: 'common.rate_limited',
  503: 'common.unavailable',
};
export const statusErrorCode = (status: number) =>
  STATUS_CODES[status] ?? (status >= 500 ? 'common.internal' : 'common.bad_request');

const PART_NAMES: Record<string, string> = {
  body: '请求体',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};

/** Fastify's own 4xx errors (bad JSON, wrong content type…) in words a user can act on. */
const STATUS_MESSAGES: Record<number, string> = {
  400: '请求格式不正确',
  404: '接口不存在',
  405: '不支持的请求方法',
  413: '请求内容过大',
  415: '不支持的请求内容类型，请使用 JSON',
  429: '请求过于频繁，请稍后再试',
};

/** One error handler: every failure leaves as the envelope, with the matching HTTP status. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field =
        first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
        PART_NAMES[err.validationContext ?? ''] ||
        '请求';
      const message = `参数 ${field} 无效：${first?.message ?? '格式不正确'}`;
      return reply.code(400).send(fail(400, message, 'common.validation'));
    }
    if (isAppError(err)) {
      if (err.status >= 500) request.log.error({ err }, 'application error');
      return reply.code(err.status).send(fail(err.status, err.message, err.code));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return reply.code(500).send(fail(500, '服务器内部错误，请稍后重试'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(fail(status, STATUS_MESSAGES[status] ?? '请求无效'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(fail(500, '服务器内部错误，请稍后重试'));
  });
}
