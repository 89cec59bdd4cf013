/**
 * Exit codes a script can rely on (documented in `gpu --help` and README.md). One table: the
 * help text is generated from it.
 */
export const EXIT = {
  ok: 0,
  /** Bad command line or local input (commander's own errors exit 1 too). */
  usage: 1,
  /** The API refused the request (4xx other than below): validation, balance, state... */
  rejected: 2,
  /** Not signed in, token unknown, expired, revoked, or lacking the scope (401/403). */
  auth: 3,
  /** The instance (or other thing) does not exist (404). */
  notFound: 4,
  /** Waiting for a status took longer than --timeout. */
  timeout: 5,
  /** Network failure, server error (5xx), or the instance failed on its host. */
  server: 6,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_HELP: { code: ExitCode; zh: string; en: string }[] = [
  { code: EXIT.ok, zh: '成功', en: 'success' },
  { code: EXIT.usage, zh: '命令行用法或输入错误', en: 'usage error (bad option or argument)' },
  { code: EXIT.rejected, zh: '服务器拒绝了请求（4xx）', en: 'the API rejected the request (4xx)' },
  {
    code: EXIT.auth,
    zh: '未登录、令牌无效/过期/已撤销或权限不足（401/403）',
    en: 'authentication: not signed in, bad token or missing scope (401/403)',
  },
  { code: EXIT.notFound, zh: '实例或资源不存在（404）', en: 'not found (404)' },
  { code: EXIT.timeout, zh: '等待状态超时', en: 'timed out waiting for a status' },
  {
    code: EXIT.server,
    zh: '网络错误、服务器错误（5xx）或实例创建失败',
    en: 'network or server error (5xx), or the instance failed',
  },
];

/** An error the CLI reports and exits with; `errorCode` is the API's when it came from there. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly extra: { errorCode?: string; status?: number; en?: string } = {},
  ) {
    super(message);
  }
}

/** The exit code of an API failure, by HTTP status. */
export function exitForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status >= 500) return EXIT.server;
  return EXIT.rejected;
}
