import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers (CSP, frame, referrer, nosniff …) on every answer. @fastify/helmet builds a
 * new helmet middleware — parsing every CSP directive — on each request; our options are fixed
 * and use no per-request directive or nonce, so helmet runs once here, on a recorder, and each
 * request gets the same headers set in one go (issue 15: that was the largest hook cost of the
 * market route). The headers are exactly helmet's, X-Powered-By removal included.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>) {
  const headers: Record<string, string> = {};
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  const entries = Object.entries(headers);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of entries) raw.setHeader(name, value);
    for (const name of removed) raw.removeHeader(name);
    done();
  });
}
