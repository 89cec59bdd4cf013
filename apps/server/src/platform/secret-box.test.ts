import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

const OLD = 'old-secret-old-secret-old-secret-0123456789';
const NEW = 'new-secret-new-secret-new-secret-0123456789';

/** A value as the box sealed it before sealed values named their key: `<iv>.<tag>.<body>`. */
function legacySeal(secret: string, plain: string) {
  const key = createHash('sha256').update(`secret-box:${secret}`).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

describe('secret box: key rotation', () => {
  it('opens, after rotation, a value sealed under the previous secret', () => {
    const sealed = createSecretBox(OLD).seal('root-password');
    const rotated = createSecretBox(NEW, [OLD]);
    expect(rotated.open(sealed)).toBe('root-password');
    expect(rotated.isCurrent(sealed)).toBe(false);
  });

  it('seals under the current secret only, naming its key', () => {
    const rotated = createSecretBox(NEW, [OLD]);
    const sealed = rotated.seal('x');
    expect(sealed.startsWith(`s1.${rotated.keyId}.`)).toBe(true);
    expect(rotated.isSealed(sealed) && rotated.isCurrent(sealed)).toBe(true);
    expect(createSecretBox(NEW).open(sealed)).toBe('x');
    expect(() => createSecretBox(OLD).open(sealed)).toThrow(/APP_SECRET_PREVIOUS/);
  });

  it('opens values sealed before key ids, under the current or a previous secret', () => {
    expect(createSecretBox(NEW, [OLD]).open(legacySeal(OLD, 'legacy'))).toBe('legacy');
    expect(createSecretBox(NEW).open(legacySeal(NEW, ''))).toBe('');
    expect(() => createSecretBox(NEW).open(legacySeal(OLD, 'legacy'))).toThrow();
  });

  it('refuses a tampered value and a plain string', () => {
    const box = createSecretBox(NEW);
    const sealed = box.seal('secret');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => box.open('-----BEGIN PRIVATE KEY-----')).toThrow();
    expect(box.isSealed('-----BEGIN PRIVATE KEY-----')).toBe(false);
  });

  it('opens a value again from memory, and still refuses its tampered copy once it was opened', () => {
    const box = createSecretBox(NEW, [OLD]);
    const values = Array.from({ length: 50 }, (_, i) => `pw-${i}-${randomBytes(4).toString('hex')}`);
    const sealed = values.map((v) => box.seal(v));
    for (let round = 0; round < 2; round++) expect(sealed.map((v) => box.open(v))).toEqual(values);
    const first = sealed[0] as string;
    const tampered = `${first.slice(0, -2)}${first.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(tampered)).toThrow();
    expect(box.open(first)).toBe(values[0]);
    // Another box (another secret) does not open what this one remembers.
    expect(() => createSecretBox(OLD).open(first)).toThrow();
  });
});
