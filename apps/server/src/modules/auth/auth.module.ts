import { defineModule } from '../../platform/module.ts';
import type { SmsDriver } from '../sms/index.ts';
import { accessTokensRoutes } from './access-tokens/access-tokens.routes.ts';
import { authenticateAccessToken } from './access-tokens/access-tokens.usecases.ts';
import { accountRoutes } from './account.routes.ts';
import type { AuthModuleDeps } from './auth.deps.ts';
import { registerAuth } from './auth.plugin.ts';
import { createAuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import type { OpenAccount } from './auth.usecases.ts';
import { rateLimitCleanupTask } from './tasks/rate-limit-cleanup.task.ts';
import { createTokenService } from './tokens.ts';

/**
 * Who signs in: users' registration, sign-in, sessions, account security and personal access
 * tokens; the hook that checks every request's token; and the cleanup of rate-limit counters.
 */
export const authModule = defineModule({
  name: 'auth',
  createDeps: (
    core,
    needs: {
      appSecret: string;
      isProduction: boolean;
      sms: SmsDriver;
      openAccount: OpenAccount;
      codeDailyCapPerIp: number;
    },
  ): AuthModuleDeps => {
    const now = () => core.clock.now();
    return {
      db: core.db,
      tokens: createTokenService(needs.appSecret, now),
      sms: needs.sms,
      now,
      secret: needs.appSecret,
      log: core.log,
      lookups: createAuthRepository({ db: core.db }),
      isProduction: needs.isProduction,
      openAccount: needs.openAccount,
      dailyCapPerIp: needs.codeDailyCapPerIp,
    };
  },
  hooks: (app, deps) =>
    registerAuth(app, deps.tokens, deps.lookups, (req) => authenticateAccessToken(deps, req)),
  register: async (app, deps) => {
    await authRoutes(app, deps);
    await accountRoutes(app, deps);
    await accessTokensRoutes(app, deps);
    app.tasks.register(rateLimitCleanupTask(deps));
  },
});
