import { SSH_RSA_MIN_BITS } from '@gpu/shared';
import sshpk from 'sshpk';
import { sshKeyErrors } from './ssh-keys.errors.ts';

/** The key types instances accept: what OpenSSH enables by default, minus DSA and security keys. */
const ACCEPTED_TYPES = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
]);

export interface ParsedSshKey {
  /** The key line as written into authorized_keys: type, base64 blob, comment (re-encoded by sshpk). */
  line: string;
  type: string;
  bits: number;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  comment: string;
}

/**
 * Parses one OpenSSH public key line with sshpk and checks it can go into authorized_keys as it
 * is: one line, an accepted type, RSA of at least SSH_RSA_MIN_BITS. Option prefixes
 * (`command="…" ssh-rsa …`) are refused: they would run on the user's behalf in the container.
 * The stored line is sshpk's re-encoding, so nothing of the input but the parsed key and its
 * comment reaches a container.
 */
export function parseSshPublicKey(text: string): ParsedSshKey {
  const input = text.trim();
  if (/PRIVATE KEY/.test(input) || /^PuTTY-User-Key-File/.test(input)) throw sshKeyErrors.privateKey();
  if (/[\r\n]/.test(input)) throw sshKeyErrors.multiple();
  const [typeName] = input.split(/\s+/, 1);
  if (!typeName || !ACCEPTED_TYPES.has(typeName)) throw sshKeyErrors.unsupported();
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(input, 'ssh');
  } catch {
    throw sshKeyErrors.malformed();
  }
  // The blob's own type must be the one named in front (sshpk reads the blob).
  const line = key.toString('ssh');
  if (!line.startsWith(`${typeName} `)) throw sshKeyErrors.malformed();
  if (key.type === 'rsa' && key.size < SSH_RSA_MIN_BITS) throw sshKeyErrors.rsaTooShort(key.size);
  const comment = (key.comment ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 200);
  const [, blob] = line.split(' ');
  return {
    line: comment && comment !== '(unnamed)' ? `${typeName} ${blob} ${comment}` : `${typeName} ${blob}`,
    type: typeName,
    bits: key.size,
    fingerprint: key.fingerprint('sha256').toString(),
    comment: comment === '(unnamed)' ? '' : comment,
  };
}
