import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Feeds the blocks one by one to one `bash -euo pipefail`, as a reader pastes them into one
 * terminal: the next block goes in when the last one has finished, after `between` (the test's
 * way to let time pass). Answers how many blocks passed before the first failure, and the output.
 */
function runBlocks(
  blocks: string[],
  opts: { env: Record<string, string>; cwd: string; between?: (block: string) => void; timeoutMs?: number },
) {
  const child = spawn('bash', ['-euo', 'pipefail', '-s'], { cwd: opts.cwd, env: opts.env });
  let output = '';
  let passed = 0;
  let wake = () => {};
  const collect = (d: Buffer) => {
    output += d;
    passed = output.split('\n').filter((l) => l.startsWith(MARK)).length;
    wake();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      wake();
      resolve(code);
    });
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
  // Async, not execFileSync: the server answering the blocks runs in this very process.
  return (async () => {
    for (const [i, block] of blocks.entries()) {
      const file = path.join(opts.cwd, `block-${i + 1}.sh`);
      writeFileSync(file, block);
      // From a file, with no stdin: a command reading stdin would eat the next blocks.
      child.stdin.write(`source ${file} </dev/null\necho "${MARK} ${i + 1}"\n`);
      while (passed <= i && child.exitCode === null && child.signalCode === null)
        await new Promise<void>((r) => {
          wake = r;
        });
      if (passed <= i) break;
      opts.between?.(block);
    }
    child.stdin.end();
    const code = await closed;
    clearTimeout(timer);
    return { code, passed, output };
  })();
}

/** How far the server's clock is ahead of the real one: the reader's hour on the instance. */
let later = 0;
let ctx: Awaited<ReturnType<typeof instanceTestApp>>;
let env: Record<string, string>;
let work: string;
beforeAll(async () => {
  // The guide's JSON tool; CI installs it (.ci/run).
  expect(() => execFileSync('jq', ['--version']), 'docs/api.md needs jq on PATH').not.toThrow();
  ctx = await instanceTestApp({ now: () => new Date(Date.now() + later) });
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
    // Once the reader has the SSH command, they work on the instance for an hour (the hourly
    // instance is billed in whole fen: a run of seconds would list no bill).
    const run = await runBlocks(blocks, {
      env,
      cwd: work,
      between: (block) => {
        if (block.includes('sshCommand')) later += 3600_000;
      },
    });
    expect(
      run.passed,
      `block ${run.passed + 1} failed:\n${blocks[run.passed] ?? ''}\n--- output ---\n${run.output}`,
    ).toBe(blocks.length);
    expect(run.code).toBe(0);
    // The guide's instance ended released, with its hour billed, as the owner's token sees it.
    const token = { authorization: `Bearer ${env.GPU_TOKEN}`, 'x-tenant-host': '127.0.0.1' };
    const list = await ctx.t.app.inject({ url: '/api/gpu/instances?size=100', headers: token });
    const mine = (list.json().data.list as Instance[]).filter((i) => i.name === 'api-guide');
    expect(mine.map((i) => i.status)).toEqual(['RELEASED']);
    const bills = await ctx.t.app.inject({
      url: `/api/v2/billing/records?instanceId=${mine[0]?.id}`,
      headers: token,
    });
    const lines = bills.json().data.list as { kind: string; amount: number }[];
    expect(lines.map((b) => b.kind)).toContain('metering');
    // An hour and the seconds around it, at the instance's own price (discounts applied).
    // In fen: the hour may be split over two hourly lines, and yuan do not add up exactly as floats.
    const fen = (yuan: number) => Math.round(yuan * 100);
    const billed = lines.reduce((sum, b) => sum + fen(b.amount), 0);
    expect(billed).toBeGreaterThanOrEqual(fen(mine[0]?.hourlyPrice ?? 1));
    expect(run.output.split('\n')).toContain('RELEASED');
  });

  it('fails on the block that calls a wrong path', async () => {
    const blocks = bashBlocks(GUIDE);
    const market = blocks.findIndex((b) => b.includes('/api/gpu/market?'));
    expect(market).toBeGreaterThan(0);
    const broken = blocks
      .slice(0, market + 1)
      .map((b, i) => (i === market ? b.replace('/api/gpu/market?', '/api/gpu/markets?') : b));
    const run = await runBlocks(broken, { env, cwd: work, timeoutMs: 60_000 });
    expect(run.code).not.toBe(0);
    expect(run.passed).toBe(market);
    expect(run.output).toContain('404');
  });
});
