import { SSH_KEYS_PER_USER, type SshKey, type SshKeyCreate } from '@gpu/shared';
import type { Db } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { sshKeyErrors } from './ssh-keys.errors.ts';
import { parseSshPublicKey } from './ssh-keys.models.ts';
import { createSshKeysRepository, type SshKeyRow } from './ssh-keys.repository.ts';

export interface SshKeysDeps {
  db: Db;
}

/** Who owns the keys: the signed-in user of this tenant. */
export interface KeyOwner {
  id: number;
  tenantId: number;
}

const toView = (r: SshKeyRow): SshKey => ({
  id: r.id,
  name: r.name,
  type: r.keyType,
  bits: r.bits,
  fingerprint: r.fingerprint,
  comment: r.comment,
  createdAt: r.createdAt.toISOString(),
});

export async function listSshKeys(deps: SshKeysDeps, owner: KeyOwner): Promise<SshKey[]> {
  return (await createSshKeysRepository(deps).list(owner.id, owner.tenantId)).map(toView);
}

/**
 * Adds a key: parsed and checked before anything is written; under the owner's row lock the
 * limit and the duplicate check see every earlier add (the unique index backs the latter).
 */
export async function addSshKey(deps: SshKeysDeps, owner: KeyOwner, input: SshKeyCreate): Promise<SshKey> {
  const parsed = parseSshPublicKey(input.publicKey);
  try {
    return await deps.db.transaction(async (tx) => {
      const repo = createSshKeysRepository({ db: tx });
      await repo.lockOwner(owner.id);
      if (await repo.byFingerprint(owner.id, parsed.fingerprint)) throw sshKeyErrors.duplicate();
      if ((await repo.countOf(owner.id)) >= SSH_KEYS_PER_USER) throw sshKeyErrors.limit();
      const row = await repo.insert({
        tenantId: owner.tenantId,
        userId: owner.id,
        name: input.name,
        publicKey: parsed.line,
        keyType: parsed.type,
        bits: parsed.bits,
        fingerprint: parsed.fingerprint,
        comment: parsed.comment,
      });
      return toView(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw sshKeyErrors.duplicate();
    throw err;
  }
}

export async function deleteSshKey(deps: SshKeysDeps, owner: KeyOwner, id: number): Promise<void> {
  if (!(await createSshKeysRepository(deps).delete(id, owner.id, owner.tenantId)))
    throw sshKeyErrors.notFound();
}
