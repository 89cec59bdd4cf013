import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Instance, MarketList } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../server/src/test/instances.ts';
import { CLI_ENTRY } from '../scripts/build.ts';
import { type CliWorld, cliWorld } from './cli-world.ts';

let world: CliWorld;
let owner: Awaited<ReturnType<CliWorld['user']>>;

beforeAll(async () => {
  world = await cliWorld();
  owner = await world.user(500);
});
afterAll(() => world.close());

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The CLI on a terminal: util-linux `script` gives it a pseudo-terminal for stdin, stdout and
 * stderr. Each reply is typed only once its prompt has shown, as a person would (typed earlier,
 * the terminal itself would echo it before the CLI turns echo off).
 */
function onTerminal(
  args: string[],
  env: Record<string, string>,
  dialog: [prompt: string, reply: string][] = [],
) {
  const command = [process.execPath, CLI_ENTRY, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: world.home,
      XDG_CONFIG_HOME: path.join(world.home, 'config'),
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      ...env,
    },
  });
  let out = '';
  const steps = [...dialog];
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const step = steps[0];
    if (step && out.includes(step[0])) {
      steps.shift();
      child.stdin.write(step[1]);
    }
  });
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
}

describe('on a terminal', () => {
  it('login asks for the token without echoing it', async () => {
    const secret = await owner.newToken(['read']);
    const r = await onTerminal(['--api', world.api, 'login'], {}, [['访问令牌: ', `${secret.token}\r`]]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`已登录 ${owner.user.username}`);
    expect(r.out).not.toContain(secret.token);
    const stored = JSON.parse(readFileSync(path.join(world.home, 'config/gpu/config.json'), 'utf8'));
    expect(stored.token).toBe(secret.token);
  });

  it('create shows a spinner; rm asks first: no keeps the instance, yes releases it', async () => {
    const env = { GPU_API: world.api, GPU_TOKEN: owner.token };
    const market = await world.run(['market', '--json', '--keyword', 'ah-a-4090-01'], { token: owner.token });
    const machine = String((JSON.parse(market.stdout) as MarketList).list[0]?.id);
    const created = await onTerminal(
      ['create', '--machine', machine, '--image', IMAGE, '--name', 'tty'],
      env,
    );
    expect(created.code, created.out).toBe(0);
    // Redrawn in place: a line clear, a spinner frame, the status and the seconds waited.
    const clear = '\r\u001b[2K';
    expect(created.out).toContain(clear);
    const frames = created.out.split(clear).slice(1, -1);
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames)
      expect(f).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 等待实例 \d+ → 运行中: (创建中|运行中) \(\ds\)$/);
    const id = /已创建实例 (\d+)/.exec(created.out)?.[1] as string;

    const no = await onTerminal(['rm', id], env, [['[y/N] ', 'n\r']]);
    expect(no.code).toBe(1);
    expect(no.out).toContain(`释放实例后数据将被删除且不可恢复。确定释放 ${id}?`);
    expect(no.out).toContain('已取消');
    const still = await world.run(['ls', '--json'], { token: owner.token });
    expect(
      (JSON.parse(still.stdout) as { list: Instance[] }).list.find((i) => String(i.id) === id)?.status,
    ).toBe('RUNNING');

    const yes = await onTerminal(['rm', id], env, [['[y/N] ', 'y\r']]);
    expect(yes.code, yes.out).toBe(0);
    expect(yes.out).toMatch(new RegExp(`${id}\\s+tty\\s+已释放`));
  });
});
