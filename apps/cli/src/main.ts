import { Command, CommanderError, Option } from 'commander';
import { CLI_VERSION } from './api.ts';
import { accountCommands } from './commands/account.ts';
import { billCommands } from './commands/bills.ts';
import { instanceCommands } from './commands/instances.ts';
import { marketCommands } from './commands/market.ts';
import { powerCommands } from './commands/power.ts';
import { CliError, EXIT, EXIT_HELP } from './exit.ts';
import { errorsInEnglishToo, resolveLang } from './messages.ts';

const HELP_AFTER = `
环境变量 / environment:
  GPU_API     服务器地址，优先于 gpu login 保存的 / API address, overrides the stored one
  GPU_TOKEN   访问令牌，优先于保存的（CI 脚本用）/ access token, overrides the stored one
  GPU_LANG    zh 或 en / zh or en (else LANG)

退出码 / exit codes:
${EXIT_HELP.map((e) => `  ${e.code}  ${e.zh} / ${e.en}`).join('\n')}
`;

function buildProgram() {
  const program = new Command('gpu')
    .description('GPU 租用平台命令行客户端 / command-line client of the GPU rental platform')
    .version(CLI_VERSION, '-V, --version')
    .option('--json', '输出 JSON（脚本用）/ machine-readable JSON output')
    .addOption(new Option('--lang <lang>', '提示语言 / language of messages').choices(['zh', 'en']))
    .option('--api <url>', '服务器地址（默认取 GPU_API 或 gpu login 保存的）/ API address')
    .addHelpText('after', HELP_AFTER)
    .showHelpAfterError('(gpu --help)')
    .exitOverride();
  accountCommands(program);
  marketCommands(program);
  instanceCommands(program);
  powerCommands(program);
  billCommands(program);
  return program;
}

/** The failure on stderr: the message (the server's Chinese one), an English line, or JSON. */
function report(err: CliError, argv: string[]) {
  const flag =
    argv.find((_a, i) => argv[i - 1] === '--lang') ?? argv.find((a) => a.startsWith('--lang='))?.slice(7);
  const lang = resolveLang(flag);
  if (argv.includes('--json')) {
    const { errorCode, status, en } = err.extra;
    process.stderr.write(
      `${JSON.stringify({ error: { exitCode: err.exitCode, status, errorCode, message: err.message, en } })}\n`,
    );
    return;
  }
  process.stderr.write(`${lang === 'zh' ? '错误：' : 'Error: '}${err.message}\n`);
  if (err.extra.en && errorsInEnglishToo(flag)) process.stderr.write(`  ${err.extra.en}\n`);
}

export async function main(argv = process.argv) {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const e =
      err instanceof CliError ? err : new CliError(EXIT.server, (err as Error).message ?? String(err));
    report(e, argv.slice(2));
    process.exitCode = e.exitCode;
  }
}

await main();
