import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * JSON answers get the short set OWASP's REST cheat sheet gives for APIs: a JSON body is never
 * rendered as a page, so the document directives (scripts, styles, images, frames it loads) mean
 * nothing there. Each header costs on every answer (the market route lost a quarter of its
 * throughput to helmet's eleven, issue 15); pages, assets and downloads keep helmet's full set.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Helmet's headers (CSP, frame, referrer, nosniff …) on every page and asset, the API set on JSON
 * answers (decided on the answer's content type, so errors and every route are covered).
 * @fastify/helmet builds a new helmet middleware — parsing every CSP directive — on each
 * request; our options are fixed and use no per-request directive or nonce, so helmet runs once
 * here, on a recorder, and each answer gets the same headers set in one go. The page headers are
 * exactly helmet's, X-Powered-By removal included.
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
  const page = { ...headers };
  const api = { ...API_SECURITY_HEADERS };
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const json = typeof type === 'string' && type.startsWith('application/json');
    // Through the reply, not res.setHeader: Node then writes all headers in one pass (writeHead's
    // fast path) instead of validating and merging them into a header map first.
    reply.headers(json ? api : page);
    if (!json) for (const name of removed) reply.raw.removeHeader(name);
    done(null, payload);
  });
}
