/**
 * What the CLI says, in Chinese and English. Chinese is the default (the platform's language);
 * `--lang en`, GPU_LANG=en or an English LANG switch the CLI's own words to English, and API
 * errors then show the server's Chinese message with an English line under it.
 */
export type Lang = 'zh' | 'en';

const langSetting = (flag: string | undefined, env: NodeJS.ProcessEnv) =>
  (flag ?? env.GPU_LANG ?? env.LC_ALL ?? env.LC_MESSAGES ?? env.LANG ?? '').toLowerCase();

export function resolveLang(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Lang {
  return langSetting(flag, env).startsWith('en') ? 'en' : 'zh';
}

/** API errors get the English line too unless Chinese was asked for (--lang zh, a zh LANG). */
export const errorsInEnglishToo = (flag: string | undefined, env: NodeJS.ProcessEnv = process.env) =>
  !langSetting(flag, env).startsWith('zh');

type Text = { zh: string; en: string };
const m = (zh: string, en: string): Text => ({ zh, en });

export const TEXT = {
  notLoggedIn: m(
    '未登录：请先运行 gpu login（或设置 GPU_TOKEN）',
    'Not signed in: run `gpu login` (or set GPU_TOKEN)',
  ),
  noApi: m(
    '未指定服务器地址：请用 --api <地址> 或设置 GPU_API',
    'No API address: pass --api <url> or set GPU_API',
  ),
  badApi: m(
    '服务器地址无效（须为 http:// 或 https:// 开头）',
    'Invalid API address (must start with http:// or https://)',
  ),
  tokenPrompt: m('访问令牌: ', 'Access token: '),
  tokenEmpty: m('未提供访问令牌', 'No access token given'),
  loggedIn: m('已登录', 'Signed in as'),
  configSaved: m('令牌已保存到', 'Token saved to'),
  loggedOut: m('已退出登录，已删除', 'Signed out, removed'),
  notStored: m('没有保存的登录信息', 'No stored sign-in'),
  envOverrides: m('注意：GPU_TOKEN 环境变量优先于保存的令牌', 'Note: GPU_TOKEN overrides the stored token'),
  cannotReach: m('无法连接服务器', 'Cannot reach'),
  notApi: m(
    '服务器的回答不是平台 API 的格式（地址是否正确？）',
    'The server did not answer as the platform API (is the address right?)',
  ),
  serverError: m('服务器错误', 'Server error'),
  waiting: m('等待实例', 'Waiting for instance'),
  waitTimeout: m('等待超时，实例当前状态', 'Timed out waiting; the instance is now'),
  instanceFailed: m('实例创建失败', 'The instance failed'),
  instanceReleased: m('实例已被释放', 'The instance was released'),
  notRunning: m('实例未在运行，当前状态', 'The instance is not running; it is'),
  noSsh: m('实例暂无 SSH 连接信息', 'The instance has no SSH details yet'),
  password: m('SSH 密码', 'SSH password'),
  oddSsh: m(
    '无法识别服务器给出的 SSH 命令，请复制后手动执行',
    'Unexpected SSH command from the server: run it yourself',
  ),
  ambiguous: m('有多个实例叫这个名字，请用实例编号', 'Several instances have this name: use the id'),
  noSuchInstance: m('没有这个实例', 'No such instance'),
  confirmRelease: m(
    '释放实例后数据将被删除且不可恢复。确定释放',
    'Releasing deletes its data for good. Release',
  ),
  aborted: m('已取消', 'Aborted'),
  needYes: m('非交互环境下释放实例需要 --yes', 'Releasing without a terminal needs --yes'),
  created: m('已创建实例', 'Created instance'),
  done: m('完成', 'done'),
  empty: m('（无）', '(none)'),
  total: m('共', 'total'),
  regionUnknown: m('没有这个地区', 'No such region'),
  available: m('可用余额', 'Available'),
  frozen: m('冻结金额', 'Frozen'),
  balanceTotal: m('总余额', 'Total'),
} as const;
export type TextKey = keyof typeof TEXT;

export const say = (lang: Lang, key: TextKey) => TEXT[key][lang];

/**
 * English for the API's error codes (`errorCode` of the failure envelope) that a CLI user meets.
 * The server's Chinese message stays the main line: it names the field or the amount.
 */
export const ERROR_CODES_EN: Record<string, string> = {
  'common.unauthorized': 'Not signed in, or the token is unknown, expired or revoked: run `gpu login`.',
  'common.forbidden': 'Not allowed.',
  'common.not_found': 'Not found (is the API address right?).',
  'common.validation': 'A parameter was refused (named above).',
  'common.bad_request': 'The request was refused as malformed.',
  'common.rate_limited': 'Too many requests: wait a minute and try again.',
  'common.conflict': 'Conflicts with the current state: reload and try again.',
  'common.internal': 'Server error: try again later.',
  'common.unavailable': 'The service is unavailable right now: try again later.',
  'auth.token_scope':
    'The access token lacks the scope for this (a read-only token cannot create, power or release instances).',
  'auth.token_not_allowed': 'Access tokens cannot do this: use the web console.',
  'auth.disabled': 'The account is disabled: contact support.',
  'instances.not_found': 'No such instance among yours.',
  'instances.bad_state': 'The instance is not in a state that allows this.',
  'instances.insufficient_balance': 'Insufficient balance: top up in the console first.',
  'billing.insufficient_balance': 'Insufficient balance: top up in the console first.',
  'instances.image_unavailable': 'The image does not exist or does not fit this GPU (see `gpu images`).',
  'instances.gpus_taken': 'Not enough idle GPUs on the host right now: try later.',
  'instances.original_gpus_taken': "The instance's GPUs were taken: start it on other GPUs in the console.",
  'instances.create_failed': 'Creating the container failed.',
  'instances.driver_failed': 'The host failed to carry out the action.',
  'pricing.machine_not_found': 'No such machine in the market (see `gpu market`).',
  'pricing.not_enough_idle': 'The machine does not have that many idle GPUs.',
  'pricing.voucher_unavailable': 'The voucher does not exist or cannot be used for this order.',
  'idempotency.bad_key': 'Invalid Idempotency-Key.',
  'idempotency.in_flight': 'The same request is still being processed: try again shortly.',
  'idempotency.body_mismatch': 'This Idempotency-Key was already used for a different request.',
};
