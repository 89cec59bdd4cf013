import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Instance, MarketList } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../server/src/test/instances.ts';
import { type CliWorld, cliWorld } from './cli-world.ts';

let world: CliWorld;
let owner: Awaited<ReturnType<CliWorld['user']>>;
let machineId: number;

beforeAll(async () => {
  world = await cliWorld();
  owner = await world.user(500);
  const market = await world.run(['market', '--json', '--keyword', 'ah-a-4090-01'], { token: owner.token });
  expect(market.code, market.stderr).toBe(0);
  machineId = (JSON.parse(market.stdout) as MarketList).list[0]?.id as number;
  expect(machineId).toBeGreaterThan(0);
});
afterAll(() => world.close());

const json = <T>(out: string) => JSON.parse(out) as T;

describe('create → ssh → stop → start → rm on the simulated driver', () => {
  let id: number;

  it('create waits for RUNNING and prints the instance; progress goes to stderr only', async () => {
    const r = await world.run(
      ['create', '--machine', String(machineId), '--image', IMAGE, '--name', 'cli-life', '--json'],
      { token: owner.token },
    );
    expect(r.code, r.stderr).toBe(0);
    const inst = json<Instance>(r.stdout);
    expect(inst).toMatchObject({ name: 'cli-life', status: 'RUNNING', gpuCount: 1 });
    id = inst.id;
    // stderr is no terminal here: one line per status, no spinner characters.
    expect(r.stderr).toContain(`已创建实例 ${id} (cli-life)`);
    expect(r.stderr).toMatch(/运行中/);
    expect(r.stderr).not.toMatch(/\r|⠋/);
  });

  it('ssh prints a working-looking command; --json takes it apart', async () => {
    const r = await world.run(['ssh', String(id)], { token: owner.token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^ssh -p \d+ root@[\w.-]+$/);
    const byName = await world.run(['ssh', 'cli-life', '--json'], { token: owner.token });
    expect(byName.code, byName.stderr).toBe(0);
    const parts = json<{ command: string; port: number; user: string; host: string }>(byName.stdout);
    expect(parts.command).toBe(r.stdout.trim());
    expect(parts).toMatchObject({ user: 'root', command: `ssh -p ${parts.port} root@${parts.host}` });
    // The password, where password sign-in is on, is a hint on stderr (stdout stays the command).
    const inst = json<{ list: Instance[] }>(
      (await world.run(['ls', '--json'], { token: owner.token })).stdout,
    ).list[0];
    expect(inst?.sshPasswordAuth).toBe(true);
    expect(inst?.sshPassword).toMatch(/\S{8,}/);
    expect(r.stderr).toBe(`SSH 密码: ${inst?.sshPassword}\n`);
    expect(json<{ password: string }>(byName.stdout).password).toBe(inst?.sshPassword);
  });

  it('ssh --exec runs ssh with those arguments (and the ones after --), exiting as it does', async () => {
    // A stand-in ssh first on PATH: it prints what it was given and exits 7.
    const bin = mkdtempSync(path.join(tmpdir(), 'fake-ssh-'));
    writeFileSync(path.join(bin, 'ssh'), '#!/bin/sh\necho "fake-ssh $*"\nexit 7\n', { mode: 0o755 });
    const r = await world.run(['ssh', String(id), '--exec', '--', 'nvidia-smi', '-L'], {
      token: owner.token,
      env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` },
    });
    rmSync(bin, { recursive: true, force: true });
    const { command } = json<{ command: string }>(
      (await world.run(['ssh', String(id), '--json'], { token: owner.token })).stdout,
    );
    expect(r.code).toBe(7);
    expect(r.stdout).toBe(`fake-ssh ${command.replace(/^ssh /, '')} nvidia-smi -L\n`);
  });

  it('ls shows it running, as a table and as JSON', async () => {
    const table = await world.run(['ls'], { token: owner.token });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^\s*ID\s+名称\s+状态/);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+cli-life\\s+运行中`));
    const en = await world.run(['ls', '--lang', 'en'], { token: owner.token });
    expect(en.stdout).toMatch(new RegExp(`${id}\\s+cli-life\\s+RUNNING`));
    const list = json<{ list: Instance[] }>(
      (await world.run(['ls', '--json'], { token: owner.token })).stdout,
    );
    expect(list.list.find((i) => i.id === id)?.status).toBe('RUNNING');
  });

  it('stop waits for STOPPED, start for RUNNING again', async () => {
    const stop = await world.run(['stop', String(id), '--json'], { token: owner.token });
    expect(stop.code, stop.stderr).toBe(0);
    expect(json<Instance>(stop.stdout).status).toBe('STOPPED');
    const ssh = await world.run(['ssh', String(id)], { token: owner.token });
    expect(ssh.code).toBe(2);
    expect(ssh.stderr).toContain('实例未在运行，当前状态 已关机');
    const start = await world.run(['start', 'cli-life', '--json'], { token: owner.token });
    expect(start.code, start.stderr).toBe(0);
    expect(json<Instance>(start.stdout).status).toBe('RUNNING');
  });

  it('rm refuses without a terminal unless --yes, then releases and waits', async () => {
    const refused = await world.run(['rm', String(id)], { token: owner.token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--yes');
    const still = json<{ list: Instance[] }>(
      (await world.run(['ls', '--json'], { token: owner.token })).stdout,
    );
    expect(still.list.find((i) => i.id === id)?.status).toBe('RUNNING');
    const rm = await world.run(['rm', String(id), '--yes', '--json'], { token: owner.token });
    expect(rm.code, rm.stderr).toBe(0);
    expect(json<Instance>(rm.stdout).status).toBe('RELEASED');
    const live = json<{ list: Instance[] }>(
      (await world.run(['ls', '--json'], { token: owner.token })).stdout,
    );
    expect(live.list.some((i) => i.id === id)).toBe(false);
    const all = json<{ list: Instance[] }>(
      (await world.run(['ls', '--all', '--json'], { token: owner.token })).stdout,
    );
    expect(all.list.find((i) => i.id === id)?.status).toBe('RELEASED');
  });

  it('balance shows what the ledger holds', async () => {
    const balance = await world.run(['balance', '--json'], { token: owner.token });
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout).available).toBe(await world.h.balance(owner.user.id));
    const human = await world.run(['balance'], { token: owner.token });
    expect(human.stdout).toMatch(/^可用余额: ¥\d+\.\d{2}$/m);
  });
});

describe('create is bought once per Idempotency-Key', () => {
  it('the same --idempotency-key twice answers the same instance and charges once', async () => {
    const buyer = await world.user(500);
    const args = ['create', '--machine', String(machineId), '--image', IMAGE, '--no-wait', '--json'];
    args.push('--billing', 'daily', '--duration', '1');
    const key = ['--idempotency-key', 'script-run-0001', '--name', 'once'];
    const first = await world.run([...args, ...key], { token: buyer.token });
    expect(first.code, first.stderr).toBe(0);
    const afterFirst = await world.h.balance(buyer.user.id);
    const again = await world.run([...args, ...key], { token: buyer.token });
    expect(again.code, again.stderr).toBe(0);
    expect(json<Instance>(again.stdout).id).toBe(json<Instance>(first.stdout).id);
    expect(await world.h.balance(buyer.user.id)).toBe(afterFirst);
    const mine = json<{ list: Instance[] }>(
      (await world.run(['ls', '--json'], { token: buyer.token })).stdout,
    );
    expect(mine.list).toHaveLength(1);
    // One order in the bills, as a table and as JSON.
    const bills = await world.run(['bills', '--json'], { token: buyer.token });
    expect(bills.code, bills.stderr).toBe(0);
    const page = json<{ list: { kind: string; instanceId: number; amount: number }[] }>(bills.stdout);
    expect(page.list.map((b) => [b.kind, b.instanceId])).toEqual([['create', mine.list[0]?.id]]);
    expect(page.list[0]?.amount).toBeCloseTo(500 - afterFirst, 2);
    const table = await world.run(['bills'], { token: buyer.token });
    expect(table.stdout).toMatch(/^编号\s+实例\s+类型/);
    expect(table.stdout).toMatch(/OD\d+\S*\s+\d+ once\s+新购\s+包日/);
  });
});
