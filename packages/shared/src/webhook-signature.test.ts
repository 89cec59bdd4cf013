import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from './webhook-signature.ts';

describe('webhook signature', () => {
  const secret = 'whsec_test';
  const body = '{"id":1,"event":"low_balance"}';
  it('signs t.<body> with HMAC-SHA256 in hex, as any HMAC library computes it', async () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(await signWebhookPayload(secret, body, 1700000000)).toBe(`t=1700000000,v1=${expected}`);
  });
  it('verifies within the tolerance, refuses changes, other secrets, old or malformed headers', async () => {
    const header = await signWebhookPayload(secret, body, 1700000000);
    expect(await verifyWebhookSignature(secret, header, body, 1700000100, 300)).toBe(true);
    expect(await verifyWebhookSignature(secret, header, body, 1699999800, 300)).toBe(true);
    expect(await verifyWebhookSignature(secret, header, body, 1700000301, 300)).toBe(false);
    expect(await verifyWebhookSignature(secret, header, `${body} `, 1700000000)).toBe(false);
    expect(await verifyWebhookSignature('other', header, body, 1700000000)).toBe(false);
    for (const bad of [undefined, '', 't=abc,v1=00', `v1=${'0'.repeat(64)}`, header.replace(/.$/, 'x')]) {
      expect(await verifyWebhookSignature(secret, bad, body, 1700000000)).toBe(false);
    }
  });
});
