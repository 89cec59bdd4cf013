import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { resealSecrets } from '../hosts/index.ts';
import { createSecretsRepository } from './secrets.repository.ts';

const BATCH = 500;

export interface SealReport {
  /** Hosts whose settings were rewritten (plain secrets sealed, or sealed again under APP_SECRET). */
  hosts: number;
  /** Instance secrets (root passwords, JupyterLab tokens) sealed again under APP_SECRET. */
  instances: number;
  /** Stored idempotent answers sealed again under APP_SECRET. */
  answers: number;
  /** Administrators' 2FA secrets sealed again under APP_SECRET. */
  admins: number;
  /** Values that open under no configured secret (left as they are). */
  failed: number;
}

/**
 * Puts every stored secret under the current APP_SECRET: host settings' secrets still in plain
 * text (written before they were sealed) are sealed, and host secrets, instance root passwords,
 * JupyterLab tokens, stored answers and administrators' 2FA secrets sealed under a previous secret (APP_SECRET_PREVIOUS) are sealed again.
 * Runs at every start (system.usecases prepareDatabase) and finds nothing to do once done; each
 * row is rewritten only if unchanged since read, so replicas and admin edits never collide.
 * After it has run on the new secret, APP_SECRET_PREVIOUS can be emptied.
 */
export async function sealStoredSecrets(
  { db, box }: { db: Db; box: SecretBox },
  log: (msg: string, detail: object) => void = () => {},
): Promise<SealReport> {
  const repo = createSecretsRepository({ db });
  const report: SealReport = { hosts: 0, instances: 0, answers: 0, admins: 0, failed: 0 };

  for (const row of await repo.hostSettings()) {
    let next: Record<string, unknown>;
    try {
      next = resealSecrets(row.settings, box);
    } catch (err) {
      report.failed++;
      log('a host secret opens under no configured secret', { hostId: row.id, err: (err as Error).message });
      continue;
    }
    if (JSON.stringify(next) === JSON.stringify(row.settings)) continue;
    if (await repo.replaceHostSettings(row.id, row.settings, next)) report.hosts++;
  }

  const prefix = box.currentPrefix;
  const reseal = async (
    list: (prefix: string, afterId: number, limit: number) => Promise<{ id: number; value: string }[]>,
    replace: (id: number, previous: string, next: string) => Promise<boolean>,
    what: 'instances' | 'answers' | 'admins',
  ) => {
    let after = 0;
    for (;;) {
      const rows = await list(prefix, after, BATCH);
      for (const r of rows) {
        let next: string;
        try {
          next = box.seal(box.open(r.value));
        } catch (err) {
          report.failed++;
          log(`a sealed ${what} value opens under no configured secret`, {
            id: r.id,
            err: (err as Error).message,
          });
          continue;
        }
        if (await replace(r.id, r.value, next)) report[what]++;
      }
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]?.id ?? after;
    }
  };
  for (const column of ['rootPasswordEnc', 'jupyterTokenEnc'] as const) {
    await reseal(
      (p, after, limit) => repo.instanceSecretsNotUnder(column, p, after, limit),
      (id, previous, next) => repo.replaceInstanceSecret(column, id, previous, next),
      'instances',
    );
  }
  await reseal(repo.storedAnswersNotUnder, repo.replaceStoredAnswer, 'answers');
  await reseal(repo.adminSecretsNotUnder, repo.replaceAdminSecret, 'admins');
  return report;
}
