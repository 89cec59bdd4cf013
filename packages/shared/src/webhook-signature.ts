/**
 * Webhook signatures (issue 31), the one procedure the server signs with and customers verify
 * with: header `X-Gpu-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Web Crypto only (Node ≥ 20, browsers, Deno), so this file can be copied as it is.
 *
 *   const ok = await verifyWebhookSignature(secret, req.headers['x-gpu-signature'], rawBody,
 *     Math.floor(Date.now() / 1000), 300);
 *
 * Verify the raw body exactly as received (before any JSON parsing), refuse old timestamps
 * (replays), and deduplicate on the body's `id`: a delivery may arrive more than once.
 */

const toHex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function hmacHex(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toHex(await globalThis.crypto.subtle.sign('HMAC', key, enc.encode(message)));
}

/** The header value for `rawBody` sent at `timestampSeconds`. */
export async function signWebhookPayload(secret: string, rawBody: string, timestampSeconds: number) {
  return `t=${timestampSeconds},v1=${await hmacHex(secret, `${timestampSeconds}.${rawBody}`)}`;
}

/** Compares in time independent of where the strings differ. */
function sameText(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * True when `header` signs `rawBody` with `secret` and its timestamp is within
 * `toleranceSeconds` of `nowSeconds` (either side).
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): Promise<boolean> {
  if (!header) return false;
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return false;
  return sameText(await hmacHex(secret, `${t}.${rawBody}`), v1);
}
