import type { FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * JSON answers get what protects a JSON body: never sniffed as another type, never framed,
 * never loaded by another origin's page (OWASP's REST cheat sheet). A JSON body is never
 * rendered as a page, so the document directives (scripts, styles, images, frames it loads)
 * mean nothing there; X-Frame-Options repeats `frame-ancestors`, which every browser we serve
 * honours, and a body with no links or subresources sends no Referer to restrict. Each header
 * costs on every answer, in the server and in the client (issue 15: helmet's eleven took a
 * quarter of the market's throughput); pages, assets and downloads keep helmet's full set.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Helmet's headers (CSP, frame, referrer, nosniff …) for pages and assets, the API set for JSON
 * answers (decided on the answer's content type, so errors and every route are covered): the
 * returned function sets them on a reply, from the app's one onSend hook (server.ts).
 * @fastify/helmet builds a new helmet middleware — parsing every CSP directive — on each
 * request; our options are fixed and use no per-request directive or nonce, so helmet runs once
 * here, on a recorder, and each answer gets the same headers set in one go. The page headers are
 * exactly helmet's, X-Powered-By removal included.
 */
export function createSecurityHeaders(options: Readonly<HelmetOptions>) {
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
  return (reply: FastifyReply) => {
    const type = reply.getHeader('content-type');
    const json = typeof type === 'string' && type.startsWith('application/json');
    // Through the reply, not res.setHeader: Node then writes all headers in one pass (writeHead's
    // fast path) instead of validating and merging them into a header map first.
    reply.headers(json ? api : page);
    if (!json) for (const name of removed) reply.raw.removeHeader(name);
  };
}
