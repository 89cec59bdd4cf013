import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeVast } from '../../server/src/modules/hosts/drivers/vastai/fake-vastai.ts';
import { ADMIN, ARTIFACTS, REPO_ROOT } from './env';

declare module 'vitest' {
  export interface ProvidedContext {
    port: number;
    /** The local fake of vast.ai's API the server talks to (overseas GPUs), and its key. */
    vastUrl: string;
    vastKey: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms; see ${logFile}`);
}

/** Starts the real server (fresh data dir, test env) on a free port; stops it after the run. */
export default async function setup(project: TestProject) {
  for (const built of ['apps/web/dist/index.html', 'apps/server/dist/main.js']) {
    if (!existsSync(path.join(REPO_ROOT, built))) {
      throw new Error(`${built} is missing: run \`npm run test:e2e\` (it builds first) or \`npm run build\``);
    }
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gpu-e2e-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = path.join(ARTIFACTS, 'e2e-server.log');
  // No offers until a test adds one, so the other files' markets stay as they were.
  const vast = await startFakeVast({ offers: [], stepMs: 1_000 });
  const log = createWriteStream(logFile);

  // The production build of the server (what `npm start` and the image run), with plain node.
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      // The blockchain page's tests confirm orders on the simulated chain, which only runs when named.
      CHAIN_PROVIDER: 'simulated',
      // The files register well over 30 users from this one address in a run.
      CODE_DAILY_CAP_PER_IP: '1000',
      // Per-address request limits per minute (the server tests cover them): files register
      // users back to back, faster or slower as the runner is loaded.
      RATE_LIMITS: 'off',
      // Figures are read right after the writes that change them.
      ADMIN_STATS_CACHE_S: '0',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      VASTAI_API_KEY: vast.apiKey,
      VASTAI_API_URL: vast.url,
      VASTAI_REFRESH_S: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  try {
    await waitForHealth(`http://localhost:${port}/api/health`, child, logFile);
  } catch (err) {
    child.kill('SIGKILL');
    await vast.close();
    throw err;
  }
  project.provide('port', port);
  project.provide('vastUrl', vast.url);
  project.provide('vastKey', vast.apiKey);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    await vast.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
