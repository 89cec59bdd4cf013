import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MarketList } from '@gpu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts } from '../../server/src/modules/hosts/hosts.tables.ts';
import { freePort } from '../../server/src/test/server-process.ts';
import pkg from '../package.json' with { type: 'json' };
import { type CliWorld, cliWorld, runCli } from './cli-world.ts';

let world: CliWorld;
let owner: Awaited<ReturnType<CliWorld['user']>>;

beforeAll(async () => {
  world = await cliWorld();
  owner = await world.user(300);
});
afterAll(() => world.close());

/** The CLI with nothing but its config folder: no GPU_API / GPU_TOKEN. */
const bare = (args: string[], input?: string) => runCli(args, { home: world.home, input });
const configPath = () => path.join(world.home, 'config', 'gpu', 'config.json');

describe('help, version and usage errors', () => {
  it('--help documents the exit codes; --version prints the package version', async () => {
    const help = await bare(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/退出码 \/ exit codes:/);
    for (const code of [0, 1, 2, 3, 4, 5, 6]) expect(help.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
    const version = await bare(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('a bad option or value exits 1 before anything is sent', async () => {
    expect((await world.run(['create', '--machine', '1', '--image', 'x', '--gpus', '9'])).code).toBe(1);
    expect((await world.run(['market', '--billing', 'yearly'])).code).toBe(1);
    expect((await world.run(['nonsense'])).code).toBe(1);
    const noApi = await bare(['login', '--token', 'x']);
    expect(noApi.code).toBe(1);
    expect(noApi.stderr).toContain('GPU_API');
  });
});

describe('login, stored config, logout', () => {
  it('login reads the token from stdin, checks it, and stores it readable by the owner only', async () => {
    const r = await bare(['--api', `${world.api}/api/`, 'login'], `${owner.token}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${owner.user.username} (${owner.user.phone}) @ ${world.api}`);
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(configPath())).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configPath(), 'utf8'))).toEqual({ api: world.api, token: owner.token });
    // Later commands need neither flag nor environment.
    const balance = await bare(['balance', '--json']);
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout).available).toBe(300);
  });

  it('a wrong token is refused (exit 3) and never replaces the stored one', async () => {
    const r = await bare(['login', '--token', 'gpu_not-a-real-token-at-all-000000000000000000']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^错误：.+\n {2}Not signed in, or the token is unknown/);
    expect(JSON.parse(readFileSync(configPath(), 'utf8')).token).toBe(owner.token);
  });

  it('GPU_TOKEN overrides the stored token (CI scripts)', async () => {
    const r = await runCli(['ls'], { home: world.home, env: { GPU_TOKEN: 'nonsense' } });
    expect(r.code).toBe(3);
  });

  it('logout removes the file; then commands say to log in (exit 3)', async () => {
    const out = await bare(['logout']);
    expect(out.code).toBe(0);
    expect(() => statSync(configPath())).toThrow();
    const r = await bare(['--api', world.api, 'ls']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('未登录：请先运行 gpu login');
  });
});

describe('token scopes', () => {
  it('a read-only token lists but cannot create or release: exit 3 and a clear message', async () => {
    const reader = await owner.newToken(['read']);
    const ls = await world.run(['ls', '--json'], { token: reader.token });
    expect(ls.code, ls.stderr).toBe(0);
    const create = await world.run(['create', '--machine', '1', '--image', '1'], { token: reader.token });
    expect(create.code).toBe(3);
    expect(create.stderr).toMatch(
      /^错误：该访问令牌没有「实例管理」权限.*\n {2}The access token lacks the scope/,
    );
    const json = await world.run(['create', '--machine', '1', '--image', '1', '--json'], {
      token: reader.token,
    });
    expect(JSON.parse(json.stderr).error).toMatchObject({
      exitCode: 3,
      status: 403,
      errorCode: 'auth.token_scope',
    });
    for (const action of [['stop'], ['start'], ['rm', '--yes']]) {
      const r = await world.run([...action, '1', '--json'], { token: reader.token });
      expect(JSON.parse(r.stderr).error, action.join(' ')).toMatchObject({
        exitCode: 3,
        errorCode: 'auth.token_scope',
      });
    }
    expect(JSON.parse((await world.run(['ls', '--json'], { token: owner.token })).stdout).list).toEqual(
      JSON.parse(ls.stdout).list,
    );
  });

  it('a revoked token is refused at once (exit 3)', async () => {
    const gone = await owner.newToken(['read']);
    expect((await world.run(['balance'], { token: gone.token })).code).toBe(0);
    const res = await world.h.t.app.inject({
      method: 'DELETE',
      url: `/api/user/access-tokens/${gone.id}`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const r = await world.run(['balance'], { token: gone.token });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Not signed in, or the token is unknown, expired or revoked');
  });
});

describe('market and images', () => {
  it('market --json parses; --region takes a name; an unknown one lists the names', async () => {
    const all = JSON.parse(
      (await world.run(['market', '--json'], { token: owner.token })).stdout,
    ) as MarketList;
    expect(all.list.length).toBeGreaterThan(1);
    const region = all.list[0]?.regionName as string;
    const r = await world.run(['market', '--region', region, '--json'], { token: owner.token });
    const one = JSON.parse(r.stdout) as MarketList;
    expect(one.list.length).toBeGreaterThan(0);
    expect(one.list.every((i) => i.regionName === region)).toBe(true);
    const unknown = await world.run(['market', '--region', '火星'], { token: owner.token });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(region);
    const table = await world.run(['market', '--billing', 'daily'], { token: owner.token });
    expect(table.stdout.split('\n')[0]).toMatch(/^机器ID\s+GPU\s+显存/);
    expect(table.stdout).toMatch(/¥\d+\.\d{2}\/卡·天/);
  });

  it('images --json and --preset list the catalogue', async () => {
    const list = JSON.parse((await world.run(['images', '--json'], { token: owner.token })).stdout) as {
      imageUrl: string;
    }[];
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]?.imageUrl).toMatch(/\S/);
    const preset = await world.run(['images', '--preset'], { token: owner.token });
    expect(preset.code, preset.stderr).toBe(0);
    expect(preset.stdout.split('\n')[0]).toMatch(/^\s*ID\s+名称/);
  });
});

describe('API errors: message, English line, exit code', () => {
  const create = (extra: string[], token = owner.token) =>
    world.run(
      ['create', '--machine', '1', '--image', 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4', ...extra],
      {
        token,
      },
    );

  it("a refused field: the server's Chinese message, the English line, exit 2", async () => {
    const r = await create(['--name', '-bad-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^错误：参数 instanceName 无效：实例名称只能包含字母、数字和连字符/);
    expect(r.stderr).toContain('A parameter was refused');
    const zh = await create(['--name', '-bad-', '--lang', 'zh']);
    expect(zh.stderr.trim().split('\n')).toHaveLength(1);
    const en = await create(['--name', '-bad-', '--lang', 'en']);
    expect(en.stderr).toMatch(/^Error: 参数 instanceName 无效/);
    const json = await create(['--name', '-bad-', '--json']);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { exitCode: 2, status: 400, errorCode: 'common.validation' },
    });
  });

  it('an empty balance: exit 2 with the balance code', async () => {
    const poor = await world.user(0);
    const r = await create(['--json'], poor.token);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.errorCode).toBe('instances.insufficient_balance');
    const human = await create([], poor.token);
    expect(human.stderr).toContain('余额不足');
    expect(human.stderr).toContain('Insufficient balance');
  });

  it("someone else's or no instance: exit 4", async () => {
    const r = await world.run(['stop', '999999'], { token: owner.token });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('实例不存在');
    expect((await world.run(['ssh', 'no-such-name'], { token: owner.token })).code).toBe(4);
  });

  it('nobody listening: exit 6 naming the address', async () => {
    const api = `http://127.0.0.1:${await freePort()}`;
    const r = await runCli(['ls'], { home: world.home, env: { GPU_API: api, GPU_TOKEN: owner.token } });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`无法连接服务器 ${api}: ECONNREFUSED`);
  });

  it('a wait longer than --timeout: exit 5, the instance still there', async () => {
    await world.h.t.db
      .update(hosts)
      .set({ settings: sql`${hosts.settings} || '{"latencyMs":4000}'::jsonb` })
      .where(eq(hosts.name, 'bj-a-a100-01'));
    world.h.t.app.deps.modules.market.market.invalidate();
    const market = JSON.parse(
      (await world.run(['market', '--keyword', 'bj-a-a100-01', '--json'], { token: owner.token })).stdout,
    ) as MarketList;
    const r = await create(['--timeout', '1', '--name', 'slow', '--machine', String(market.list[0]?.id)]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('等待超时，实例当前状态 创建中');
    // Only the wait ended: the purchase stands and goes on.
    const mine = JSON.parse((await world.run(['ls', '--json'], { token: owner.token })).stdout);
    expect(mine.list.map((i: { name: string }) => i.name)).toContain('slow');
  });
});
