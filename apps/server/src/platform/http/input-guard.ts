import type { Socket } from 'node:net';
import { CONTROL_CHARS, CONTROL_CHARS_MESSAGE, LINE_CONTROL_CHARS } from '@gpu/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commonErrors } from '../errors.ts';
import { fail } from './envelope.ts';

/** Longest path parameter handed to validation; longer ones answer 414 in the envelope. */
export const MAX_PARAM_LENGTH = 1000;
/** Node's request-line + headers limit (its default); a longer URL answers 431 in the envelope. */
export const MAX_HEADER_SIZE = 16 * 1024;
/** A body with more strings than this is not a form anyone filled in; stop looking and refuse. */
const MAX_NODES = 20_000;

/**
 * The first string (value or key) with a control character, as a field path, or null.
 * Path and query values are one-line; body strings may hold tabs and line breaks (PEM keys).
 */
export function findControlChars(value: unknown, multiLine: boolean, prefix = ''): string | null {
  const re = multiLine ? CONTROL_CHARS : LINE_CONTROL_CHARS;
  const stack: Array<[unknown, string]> = [[value, prefix]];
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > MAX_NODES) return prefix || '请求体';
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (re.test(v)) return path || '请求体';
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const childPath = path ? `${path}.${k}` : k;
        if (re.test(k)) return path || '请求体';
        stack.push([child, childPath]);
      }
    }
  }
  return null;
}

/**
 * Refuses control characters in path parameters, the query and the body before anything
 * reaches validation or the database (PostgreSQL refuses NUL in text and jsonb: a 500).
 * Runs at preValidation, so authentication (onRequest) still answers 401 first.
 */
export function registerInputGuard(app: FastifyInstance) {
  // A callback hook: the check is synchronous, so no promise per request (issue 15).
  app.addHook('preValidation', (request, _reply, done) => {
    const field =
      findControlChars(request.params, false) ??
      findControlChars(request.query, false) ??
      findControlChars(request.body, true);
    done(
      field === null ? undefined : commonErrors.badRequest(`参数 ${field} 无效：${CONTROL_CHARS_MESSAGE}`),
    );
  });
}

/** Errors Fastify raises before routing (bad percent-encoding, an over-long parameter). */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send(fail(414, '请求地址过长'));
  return reply.code(400).send(fail(400, '请求地址格式不正确'));
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', '请求地址或请求头过长'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', '请求超时，请重试'],
};

/**
 * Node rejects a request itself (URL or headers too long, malformed HTTP): answer it in the
 * envelope, then keep reading what the client is still sending until it has read the answer,
 * so it sees the 431 instead of a connection reset.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', '请求格式不正确'];
  const body = JSON.stringify(fail(status, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // Drain the rest of the request (bounded in time), then close our side cleanly.
  socket.on('data', () => {});
  socket.resume();
  socket.end();
  setTimeout(() => socket.destroy(), 5_000).unref();
}
