import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Sealed values name the key that sealed them: `s1.<key id>.<iv>.<tag>.<body>` (base64url parts).
 * The key id is a short hash of the secret, so APP_SECRET can rotate without numbering keys:
 * the current secret seals, the current and previous ones (APP_SECRET_PREVIOUS) open.
 * Values sealed before key ids (`<iv>.<tag>.<body>`) open with whichever key authenticates them.
 */
const SEALED = /^s1\.([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;
const LEGACY = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

/** How many opened values a box keeps (about two per instance on screen). */
const OPENED_KEPT = 20_000;

interface Key {
  id: string;
  key: Buffer;
}

const keyOf = (secret: string): Key => ({
  id: createHash('sha256').update(`secret-box-id:${secret}`).digest('base64url').slice(0, 8),
  key: createHash('sha256').update(`secret-box:${secret}`).digest(),
});

function decrypt(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * AES-256-GCM for secrets the platform keeps (instance root passwords, host TLS/SSH keys,
 * stored answers), keyed from APP_SECRET; `previous` are earlier secrets that still open.
 */
export function createSecretBox(appSecret: string, previous: readonly string[] = []) {
  const current = keyOf(appSecret);
  const keys = [current, ...previous.filter((s) => s !== appSecret).map(keyOf)];
  // What was opened, by the sealed text (a fresh IV and tag each seal): the instances list opens
  // two per row on every view, a twentieth of its CPU (issue 33). Bounded; only values that
  // authenticated get in, and this process holds the key to all of them anyway.
  const opened = new Map<string, string>();
  const remember = (sealed: string, plain: string) => {
    if (opened.size >= OPENED_KEPT) opened.delete(opened.keys().next().value as string);
    opened.set(sealed, plain);
    return plain;
  };
  function openAfresh(sealed: string): string {
    const m = SEALED.exec(sealed);
    if (m) {
      const [, id, iv, tag, body] = m as unknown as [string, string, string, string, string];
      const candidates = keys.filter((k) => k.id === id);
      if (candidates.length === 0)
        throw new Error(`sealed under an unknown key (${id}): list its secret in APP_SECRET_PREVIOUS`);
      return firstThatOpens(candidates, iv, tag, body);
    }
    const legacy = LEGACY.exec(sealed);
    if (!legacy) throw new Error('sealed value is malformed');
    const [, iv, tag, body] = legacy as unknown as [string, string, string, string];
    return firstThatOpens(keys, iv, tag, body);
  }

  return {
    /** Id of the key new seals use. */
    keyId: current.id,
    /** How every value sealed under the current key begins (what stored values are compared with). */
    currentPrefix: `s1.${current.id}.`,
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['s1', current.id, ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join(
        '.',
      );
    },
    open(sealed: string): string {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      return remember(sealed, openAfresh(sealed));
    },
    /** Has the shape of a value this box seals (any key id). */
    isSealed: (value: string): boolean => SEALED.test(value),
    /** Sealed under the current key: nothing to re-seal. */
    isCurrent: (value: string): boolean => SEALED.exec(value)?.[1] === current.id,
  };
}

function firstThatOpens(keys: Key[], iv: string, tag: string, body: string): string {
  for (const k of keys) {
    try {
      return decrypt(k.key, iv, tag, body);
    } catch {
      // Not this key (GCM authentication failed): try the next one.
    }
  }
  throw new Error('sealed value does not open with APP_SECRET or APP_SECRET_PREVIOUS');
}

export type SecretBox = ReturnType<typeof createSecretBox>;

/** The box of these settings: APP_SECRET seals, APP_SECRET_PREVIOUS still opens. */
export const secretBoxOf = (config: { appSecret: string; appSecretPrevious: readonly string[] }) =>
  createSecretBox(config.appSecret, config.appSecretPrevious);
