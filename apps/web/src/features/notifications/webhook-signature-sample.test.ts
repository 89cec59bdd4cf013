import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_SAMPLE } from './webhook-signature-sample';

// The page's Node.js sample, run as a customer would: it accepts a request signed by the
// documented rule (t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>) and refuses the rest.

type Verify = (rawBody: Buffer | string, header: string | undefined, secret: string) => boolean;

function loadSample(): Verify {
  // Only the function: the Express part needs an app.
  const fn = SIGNATURE_SAMPLE.slice(0, SIGNATURE_SAMPLE.indexOf('// Express'));
  return new Function('require', `${fn}\nreturn verifyGpuWebhook;`)(createRequire(import.meta.url)) as Verify;
}

const secret = 'whsec_test_0123456789';
const body = JSON.stringify({ event: 'low_balance', title: '余额不足', data: { balance: 9.5 } });
const sign = (t: number, raw: string, key = secret) =>
  `t=${t},v1=${createHmac('sha256', key).update(`${t}.${raw}`).digest('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

describe('the webhook signature sample', () => {
  const verify = loadSample();

  it('accepts a body signed with the secret, as a Buffer or a string', () => {
    const header = sign(now(), body);
    expect(verify(Buffer.from(body), header, secret)).toBe(true);
    expect(verify(body, header, secret)).toBe(true);
  });

  it('refuses another secret, a changed body, an old timestamp and a missing header', () => {
    expect(verify(body, sign(now(), body, 'other'), secret)).toBe(false);
    expect(verify(`${body} `, sign(now(), body), secret)).toBe(false);
    expect(verify(body, sign(now() - 600, body), secret)).toBe(false);
    expect(verify(body, undefined, secret)).toBe(false);
    expect(verify(body, 't=1', secret)).toBe(false);
  });
});
