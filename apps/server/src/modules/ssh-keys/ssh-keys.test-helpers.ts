import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

/** A fresh OpenSSH public key line (and its private key in PEM), made with node:crypto. */
export function sshKeyPair(
  kind: 'ed25519' | 'ecdsa' | 'rsa' = 'ed25519',
  opts: { bits?: number; comment?: string } = {},
) {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: opts.bits ?? 2048 })
      : kind === 'ecdsa'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'pem');
  key.comment = opts.comment ?? 'dev@laptop';
  return {
    publicKey: key.toString('ssh'),
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint: key.fingerprint('sha256').toString(),
  };
}
