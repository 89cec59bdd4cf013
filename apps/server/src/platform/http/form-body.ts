import type { FastifyInstance } from 'fastify';

/**
 * `application/x-www-form-urlencoded` bodies (Alipay's notify, plain HTML forms) as a flat
 * object of strings; a repeated key keeps its last value.
 */
export function registerFormBody(app: FastifyInstance, bodyLimit = 64 * 1024) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}
