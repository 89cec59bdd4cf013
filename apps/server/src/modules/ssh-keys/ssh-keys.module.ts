import { defineModule } from '../../platform/module.ts';
import { sshKeysRoutes } from './ssh-keys.routes.ts';
import type { SshKeysDeps } from './ssh-keys.usecases.ts';

/** The users' SSH public keys; instances read them when a container is made or started. */
export const sshKeysModule = defineModule({
  name: 'ssh-keys',
  createDeps: (core): SshKeysDeps => ({ db: core.db }),
  register: (app, deps) => sshKeysRoutes(app, deps),
});
