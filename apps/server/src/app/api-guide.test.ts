import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Instance } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../platform/paths.ts';
import { instanceTestApp } from '../test/instances.ts';

/**
 * docs/api.md is tested by doing what it says: its ```bash blocks run in order, in one bash,
 * against this test's own listening server (demo hosts on the simulated driver, a funded user
 * and a personal access token), as a reader would paste them into one terminal.
 */
const GUIDE = readFileSync(path.join(REPO_ROOT, 'docs/api.md'), 'utf8');

/** The guide's ```bash blocks, in order. */
export const bashBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);

const MARK = '::guide-block-ok';

/** Runs blocks in one `bash -euo pipefail`; how many passed before the first failure, and the output. */
function runBlocks(blocks: string[], env: Record<string, string>, cwd: string, timeoutMs = 240_000) {
  const script = blocks.map((b, i) => `${b}\necho "${MARK} ${i + 1}"`).join('\n');
  return new Promise<{ code: number | null; passed: number; output: string }>((resolve, reject) => {
    // Async, not execFileSync: the server answering the blocks runs in this very process.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const passed = output.split('\n').filter((l) => l.startsWith(MARK)).length;
      resolve({ code, passed, output });
    });
  });
}

let ctx: Awaited<ReturnType<typeof instanceTestApp>>;
let env: Record<string, string>;
let work: string;
beforeAll(async () => {
  // The guide's JSON tool; CI installs it (.ci/run).
  expect(() => execFileSync('jq', ['--version']), 'docs/api.md needs jq on PATH').not.toThrow();
  // Time runs a minute a second here: the guide's instance runs for seconds, and an hourly
  // instance is billed in whole fen (1 fen ≈ 18 s at ¥1.98/h), so a real run would list no bill.
  const start = Date.now();
  ctx = await instanceTestApp({ now: () => new Date(start + (Date.now() - start) * 60) });
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.t.app.server.address() as AddressInfo;
  // The user of the tenant that curl's Host (127.0.0.1:port) resolves to.
  const user = await ctx.funded(100, '127.0.0.1');
  const created = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/user/access-tokens',
    headers: user.headers,
    payload: { name: '入门示例', scopes: ['instances'], expiresInDays: 7 },
  });
  expect(created.statusCode, created.body).toBe(200);
  work = mkdtempSync(path.join(tmpdir(), 'api-guide-'));
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    LANG: 'C.UTF-8',
    GPU_API: `http://127.0.0.1:${port}`,
    GPU_TOKEN: created.json().data.token,
  };
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await ctx.t.close();
});

describe('docs/api.md (issue 32)', () => {
  it('runs block by block against a real server: created, running, stopped, released, billed', async () => {
    const blocks = bashBlocks(GUIDE);
    expect(blocks.length).toBeGreaterThan(8);
    const run = await runBlocks(blocks, env, work);
    expect(
      run.passed,
      `block ${run.passed + 1} failed:\n${blocks[run.passed] ?? ''}\n--- output ---\n${run.output}`,
    ).toBe(blocks.length);
    expect(run.code).toBe(0);
    // The guide's instance ended released, with its bill listed, as the owner sees it (with the
    // token: the session's 2 hours pass in 2 minutes here).
    const token = { authorization: `Bearer ${env.GPU_TOKEN}`, 'x-tenant-host': '127.0.0.1' };
    const list = await ctx.t.app.inject({ url: '/api/gpu/instances?size=100', headers: token });
    const mine = (list.json().data.list as Instance[]).filter((i) => i.name === 'api-guide');
    expect(mine.map((i) => i.status)).toEqual(['RELEASED']);
    const bills = await ctx.t.app.inject({
      url: `/api/v2/billing/records?instanceId=${mine[0]?.id}`,
      headers: token,
    });
    expect(bills.json().data.total).toBeGreaterThanOrEqual(1);
    expect(run.output.split('\n')).toContain('RELEASED');
  });

  it('fails on the block that calls a wrong path', async () => {
    const blocks = bashBlocks(GUIDE);
    const market = blocks.findIndex((b) => b.includes('/api/gpu/market?'));
    expect(market).toBeGreaterThan(0);
    const broken = blocks
      .slice(0, market + 1)
      .map((b, i) => (i === market ? b.replace('/api/gpu/market?', '/api/gpu/markets?') : b));
    const run = await runBlocks(broken, env, work, 60_000);
    expect(run.code).not.toBe(0);
    expect(run.passed).toBe(market);
    expect(run.output).toContain('404');
  });
});
