import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AccessTokenCreated, AccessTokenScope } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { hosts } from '../../server/src/modules/hosts/hosts.tables.ts';
import { systemClock } from '../../server/src/platform/clock.ts';
import { instanceTestApp } from '../../server/src/test/instances.ts';
import { buildCli, CLI_ENTRY } from '../scripts/build.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (apps/cli/dist/gpu.js, as installed) in a child process: asynchronously,
 * since the server it talks to runs in this process. Only the environment given here reaches
 * it (no GPU_* of the machine running the tests), with its own config folder.
 */
export function runCli(
  args: string[],
  opts: { home: string; env?: Record<string, string>; input?: string; entry?: string },
): Promise<CliResult> {
  const child = spawn(process.execPath, [opts.entry ?? CLI_ENTRY, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: opts.home,
      XDG_CONFIG_HOME: path.join(opts.home, 'config'),
      LANG: 'C.UTF-8',
      ...opts.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdin.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A real server on a free port (the demo world, simulated hosts answering after 300 ms so a
 * wait sees the transitional states), the CLI built as `npm pack` ships it, and a temp home.
 */
export async function cliWorld() {
  await buildCli();
  const h = await instanceTestApp(systemClock);
  await h.t.db.update(hosts).set({ settings: sql`${hosts.settings} || '{"latencyMs":300}'::jsonb` });
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  const api = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
  const home = mkdtempSync(path.join(tmpdir(), 'gpu-cli-'));
  return {
    h,
    api,
    home,
    /** The CLI with this world's API and a token in the environment (as a CI script runs it). */
    run: (args: string[], opts: { token?: string; env?: Record<string, string>; input?: string } = {}) =>
      runCli(args, {
        home,
        input: opts.input,
        env: { GPU_API: api, ...(opts.token ? { GPU_TOKEN: opts.token } : {}), ...opts.env },
      }),
    /**
     * A user with `yuan` on the balance (tenant of 127.0.0.1, as the CLI calls) and a personal
     * access token with `scopes`, made as the console makes one (POST /api/user/access-tokens).
     */
    async user(yuan: number, scopes: AccessTokenScope[] = ['instances']) {
      const u = await h.funded(yuan, '127.0.0.1');
      const token = async (tokenScopes: AccessTokenScope[]) => {
        const res = await h.t.app.inject({
          method: 'POST',
          url: '/api/user/access-tokens',
          headers: u.headers,
          payload: { name: `cli-${tokenScopes.join('-')}`, scopes: tokenScopes, expiresInDays: 30 },
        });
        if (res.statusCode !== 200) throw new Error(`token not made: ${res.body}`);
        return res.json().data as AccessTokenCreated;
      };
      const made = await token(scopes);
      return { ...u, token: made.token, tokenId: made.id, newToken: token };
    },
    async close() {
      await h.t.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
export type CliWorld = Awaited<ReturnType<typeof cliWorld>>;
