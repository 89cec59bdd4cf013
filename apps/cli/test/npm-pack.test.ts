import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { type CliWorld, cliWorld, runCli } from './cli-world.ts';

const run = promisify(execFile);
const CLI_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let world: CliWorld;
let tmp: string;

beforeAll(async () => {
  world = await cliWorld();
  tmp = mkdtempSync(path.join(tmpdir(), 'gpu-pack-'));
});
afterAll(async () => {
  await world.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack → npm install -g', () => {
  it('the tarball holds the bundle, installs with commander alone and runs outside the repository', async () => {
    // prepack builds dist/gpu.js; the answer lists what went in.
    const packed = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: CLI_ROOT });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    expect(info?.files.map((f) => f.path).sort()).toEqual(['README.md', 'dist/gpu.js', 'package.json']);
    const prefix = path.join(tmp, 'prefix');
    // Offline when commander is in the npm cache (npm ci put it there); else from the registry.
    await run(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        path.join(tmp, info?.filename ?? ''),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: tmp },
    );
    const installed = path.join(prefix, 'lib/node_modules/@gpu/cli');
    // What it brought along: commander, which needs nothing.
    expect(readdirSync(path.join(installed, 'node_modules'))).toEqual(['commander']);
    const gpu = path.join(prefix, 'bin/gpu');
    const version = await run(gpu, ['--version'], { cwd: tmp, env: { PATH: process.env.PATH ?? '' } });
    expect(version.stdout).toBe(`${pkg.version}\n`);
    // The installed binary against the real server.
    const user = await world.user(42);
    const balance = await runCli(['balance', '--json'], {
      home: world.home,
      entry: path.join(installed, 'dist/gpu.js'),
      env: { GPU_API: world.api, GPU_TOKEN: user.token },
    });
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ available: 42 });
  });
});
