import type { AuthDeps } from '../auth/index.ts';

/** What admin sign-in takes: auth's tokens, passwords and login limits. */
export type AdminsDeps = AuthDeps;
