import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

/** Content codings we send, the first the client accepts winning (browsers all take br). */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Below this, a coding saves less than its headers cost (@fastify/compress's threshold too). */
export const COMPRESS_MIN_BYTES = 1024;

/** Distinct Accept-Encoding values remembered; a client can send any, so the memo starts afresh past it. */
const MAX_REMEMBERED = 256;
const remembered = new Map<string, string>();
const negotiator = new Negotiator<Encoding>({
  supportedValues: [...ENCODINGS],
  cache: {
    get: (k) => remembered.get(k),
    has: (k) => remembered.has(k),
    set(k, v) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(k, v);
      return this;
    },
  },
});

/** The coding to answer a request's Accept-Encoding with, or null for the bytes as they are. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  return acceptEncoding ? negotiator.negotiate(acceptEncoding) : null;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * `body` in the given coding, off the event loop (zlib's thread pool). Brotli at quality 5: for
 * JSON a few kB long, within a few percent of the maximum's size at a fraction of its time.
 */
export function encode(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: 6 });
}
