import type { SecretBox } from '../../platform/secret-box.ts';
import type { AuthDeps } from '../auth/index.ts';

/** What administrators take: auth's tokens, passwords and login limits, and the secret box (2FA secrets). */
export interface AdminsDeps extends AuthDeps {
  box: SecretBox;
  /** Secure refresh cookies always in production. */
  isProduction: boolean;
}
