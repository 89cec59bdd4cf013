import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../platform/paths.ts';
import { freePort } from '../test/server-process.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'gpu-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

// The process under test is the production build (`npm start` runs the same file with plain node).
beforeAll(() => {
  const built = spawnSync(process.execPath, ['--import', TSX_LOADER, 'apps/server/scripts/build.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`server build failed: ${built.stderr}`);
});

/** A request whose body we finish later: the server has it in flight until then. */
function openRequest(port: number) {
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/admin/auth/login',
    headers: {
      'content-type': 'application/json',
      'content-length': '200',
      'x-request-id': 'in-flight-0001',
    },
  });
  const answer = new Promise<{ status: number; requestId: unknown; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, requestId: res.headers['x-request-id'], body }),
      );
    });
    req.on('error', reject);
  });
  req.write('{"username":"admin",');
  return { answer, finish: () => req.end(`${'"password":"wrong-password"}'.padEnd(200 - 20, ' ')}`) };
}

// This test runs the embedded PGlite in its own folder, whatever database the suite uses.
const { DATABASE_URL: _ignored, ...withoutDatabaseUrl } = process.env;

describe('graceful shutdown of the compiled server in a real process', () => {
  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
      cwd: REPO_ROOT,
      env: {
        ...withoutDatabaseUrl,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_SECRET: 'test-secret-test-secret-test-secret-0123456789',
        PAYMENT_PROVIDER: 'simulated',
        ADMIN_PASSWORD: 'shutdown-test-admin',
        DEMO_DATA: 'off',
        RATE_LIMITS: 'off',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
    });
    const deadline = Date.now() + 90_000;
    while (
      !(await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${out}`);
      if (Date.now() > deadline) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }

    const inFlight = openRequest(port);
    await new Promise((r) => setTimeout(r, 300)); // the server has the headers and half the body
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode).toBeNull(); // still waiting for our request
    inFlight.finish();
    const res = await inFlight.answer;
    // Answered in full (a wrong password), not cut off; and with the request id it came with.
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).success).toBe(false);
    expect(res.requestId).toBe('in-flight-0001');
    const [code] = await exited;
    expect(code).toBe(0);
    // Structured logs: JSON lines, the request's lines carry its id.
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.reqId === 'in-flight-0001' && l.res?.statusCode === 401)).toBe(true);
    expect(
      lines.some((l) => l.msg === 'shutting down: finishing in-flight requests' && l.signal === 'SIGTERM'),
    ).toBe(true);
  }, 150_000);
});
