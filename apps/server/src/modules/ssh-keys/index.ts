/**
 * The public face of ssh-keys: what other modules may import (besides its tables file). The
 * module's definition for the app is ssh-keys.module.ts.
 */

export { sshKeyErrors } from './ssh-keys.errors.ts';
export { createSshKeysRepository } from './ssh-keys.repository.ts';
