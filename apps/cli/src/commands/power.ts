import { spawn } from 'node:child_process';
import type { Instance, InstanceStatus } from '@gpu/shared';
import type { Command } from 'commander';
import { newIdempotencyKey } from '../api.ts';
import { contextOf } from '../context.ts';
import { CliError, EXIT } from '../exit.ts';
import { getInstance, resolveInstance, statusName, waitForStatus } from '../instances.ts';
import { say } from '../messages.ts';
import { note, printJson, printLine } from '../output.ts';
import { int } from '../parse.ts';
import { confirm } from '../prompt.ts';
import { DEFAULT_WAIT_S, printInstance } from './instances.ts';

/**
 * `ssh -p 2201 root@host` as the API gives it, taken apart for --json and --exec. User and host
 * may not start with a hyphen: ssh would read such an argument as an option.
 */
export function parseSshCommand(command: string) {
  const m = /^ssh\s+-p\s+(\d+)\s+(\w[\w.-]*)@([\w[][\w.:[\]-]*)$/.exec(command.trim());
  if (!m) return null;
  return { port: Number(m[1]), user: m[2] as string, host: m[3] as string };
}

interface WaitOptions {
  wait: boolean;
  timeout: number;
}

const ACTIONS = {
  stop: { path: 'power_off', target: 'STOPPED', zh: '实例关机', en: 'power off an instance' },
  start: { path: 'power_on', target: 'RUNNING', zh: '实例开机', en: 'power on an instance' },
  rm: {
    path: 'release',
    target: 'RELEASED',
    zh: '释放实例（删除数据）',
    en: 'release an instance (deletes its data)',
  },
} as const satisfies Record<string, { path: string; target: InstanceStatus; zh: string; en: string }>;

/** gpu ssh, gpu stop, gpu start, gpu rm. */
export function powerCommands(program: Command) {
  program
    .command('ssh')
    .description('打印（或执行）实例的 SSH 命令 / print (or run) the SSH command of an instance')
    .argument('<instance>', '实例编号或名称 / instance id or name')
    .argument('[ssh-args...]', '传给 ssh 的参数（放在 -- 之后）/ more ssh arguments, after --')
    .option('--exec', '直接执行 ssh / run ssh now')
    .action(async (ref: string, sshArgs: string[], opts: { exec?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = ctx.api();
      const inst = await getInstance(api, await resolveInstance(ctx, api, ref), ctx.lang);
      if (inst.status !== 'RUNNING')
        throw new CliError(
          EXIT.rejected,
          `${say(ctx.lang, 'notRunning')} ${statusName(inst.status, ctx.lang)}`,
          {
            errorCode: 'instances.bad_state',
          },
        );
      if (!inst.sshCommand) throw new CliError(EXIT.rejected, say(ctx.lang, 'noSsh'));
      const parts = parseSshCommand(inst.sshCommand);
      const password = inst.sshPasswordAuth ? inst.sshPassword : null;
      if (ctx.json) return printJson({ command: inst.sshCommand, ...parts, password });
      // The password is a hint for people: on stderr, so `$(gpu ssh 12)` is the command alone.
      if (password) note(`${say(ctx.lang, 'password')}: ${password}`);
      if (!opts.exec) return printLine([inst.sshCommand, ...sshArgs].join(' '));
      // Only a command in the API's usual form is run: its parts are passed as they are, no shell.
      if (!parts) throw new CliError(EXIT.server, `${say(ctx.lang, 'oddSsh')}: ${inst.sshCommand}`);
      const args = ['-p', String(parts.port), `${parts.user}@${parts.host}`, ...sshArgs];
      const child = spawn('ssh', args, { stdio: 'inherit' });
      const code = await new Promise<number>((resolve, reject) => {
        child.on('error', reject);
        child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
      }).catch((err: Error) => {
        throw new CliError(EXIT.usage, `ssh: ${err.message}`);
      });
      process.exitCode = code;
    });

  for (const [name, action] of Object.entries(ACTIONS)) {
    const command = program
      .command(name)
      .description(`${action.zh} / ${action.en}`)
      .argument('<instance>', '实例编号或名称 / instance id or name')
      .option('--no-wait', `不等待${statusName(action.target, 'zh')} / do not wait for ${action.target}`)
      .option('--timeout <seconds>', '最长等待秒数 / longest wait', int(1, 86_400), DEFAULT_WAIT_S);
    if (name === 'rm') command.alias('release').option('-y, --yes', '不再确认 / do not ask');
    if (name === 'start')
      command
        .option('--any-gpus', '原 GPU 被占用时使用该主机其他空闲 GPU / use other idle GPUs of the host')
        .option('--nogpu', '无卡模式开机 / start without GPUs (no-GPU mode)');
    command.action(
      async (
        ref: string,
        opts: WaitOptions & { yes?: boolean; anyGpus?: boolean; nogpu?: boolean },
        cmd: Command,
      ) => {
        const ctx = contextOf(cmd);
        const api = ctx.api();
        const id = await resolveInstance(ctx, api, ref);
        if (name === 'rm' && !opts.yes) {
          if (!process.stdin.isTTY || !process.stderr.isTTY)
            throw new CliError(EXIT.usage, say(ctx.lang, 'needYes'));
          if (!(await confirm(`${say(ctx.lang, 'confirmRelease')} ${id}?`)))
            throw new CliError(EXIT.usage, say(ctx.lang, 'aborted'));
        }
        const query = {
          instance_uuid: id,
          gpus: opts.anyGpus ? 'any' : undefined,
          mode: opts.nogpu ? 'nogpu' : undefined,
        };
        const answered = await api.post<Instance>(`/api/gpu/instance/${action.path}`, {
          query,
          idempotencyKey: newIdempotencyKey(),
        });
        const inst = opts.wait
          ? await waitForStatus(ctx, api, id, action.target, opts.timeout, answered.status)
          : answered;
        printInstance(ctx, inst);
      },
    );
  }
}
