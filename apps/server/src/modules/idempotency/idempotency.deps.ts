import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/secret-box.ts';

export interface IdempotencyDeps {
  db: Db;
  now: Now;
  /** Stored answers may carry secrets (a Jupyter token): sealed at rest. */
  box: SecretBox;
}
