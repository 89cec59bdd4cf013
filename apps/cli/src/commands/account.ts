import type { Balance, User } from '@gpu/shared';
import type { Command } from 'commander';
import { createApi } from '../api.ts';
import { configFile, removeConfig, writeConfig } from '../config.ts';
import { contextOf } from '../context.ts';
import { CliError, EXIT } from '../exit.ts';
import { say } from '../messages.ts';
import { note, printJson, printLine, yuan } from '../output.ts';
import { askHidden, readStdin } from '../prompt.ts';

/** gpu login, gpu logout, gpu balance. */
export function accountCommands(program: Command) {
  program
    .command('login')
    .description('保存访问令牌（账号安全 → API令牌）/ store an access token')
    .option(
      '--token <token>',
      '访问令牌；不给时从终端（不回显）或标准输入读取 / the token (else prompted or read from stdin)',
    )
    .addHelpText(
      'after',
      '\n  gpu login --api https://gpu.example.com\n  echo "$TOKEN" | gpu login --api https://gpu.example.com',
    )
    .action(async (opts: { token?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = ctx.apiBase();
      let token = opts.token?.trim();
      if (!token)
        token = process.stdin.isTTY ? await askHidden(say(ctx.lang, 'tokenPrompt')) : await readStdin();
      if (!token) throw new CliError(EXIT.usage, say(ctx.lang, 'tokenEmpty'));
      // Checked before it is stored: a mistyped token never replaces a working one.
      const user = await createApi(api, token, ctx.lang).get<User>('/api/auth/me');
      const file = writeConfig({ api, token });
      if (ctx.json) printJson({ api, configFile: file, user });
      else {
        printLine(`${say(ctx.lang, 'loggedIn')} ${user.username} (${user.phone}) @ ${api}`);
        note(`${say(ctx.lang, 'configSaved')} ${file}`);
      }
      if (process.env.GPU_TOKEN) note(say(ctx.lang, 'envOverrides'));
    });

  program
    .command('logout')
    .description('删除保存的令牌（令牌本身请在控制台撤销）/ remove the stored token')
    .action((_opts: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const file = configFile();
      const removed = removeConfig();
      if (ctx.json) printJson({ removed, configFile: file });
      else printLine(removed ? `${say(ctx.lang, 'loggedOut')} ${file}` : say(ctx.lang, 'notStored'));
    });

  program
    .command('balance')
    .description('账户余额 / account balance')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const b = await ctx.api().get<Balance>('/api/user/balance');
      if (ctx.json) return printJson(b);
      printLine(`${say(ctx.lang, 'available')}: ${yuan(b.available)}`);
      printLine(`${say(ctx.lang, 'frozen')}: ${yuan(b.frozen)}`);
      printLine(`${say(ctx.lang, 'balanceTotal')}: ${yuan(b.total)}`);
    });
}
