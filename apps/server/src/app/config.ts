import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { USD_CNY_TENTHS } from '@gpu/shared/constants';
import { z } from 'zod';
import { parseHostNetworks } from '../platform/host-networks.ts';
import { REPO_ROOT } from '../platform/paths.ts';

export { REPO_ROOT };

const port = z.coerce
  .number({ message: '必须是 1–65535 之间的整数' })
  .int('必须是 1–65535 之间的整数')
  .min(1, '必须是 1–65535 之间的整数')
  .max(65535, '必须是 1–65535 之间的整数');

/** An integer setting between `min` and `max`; one message names the range whatever is wrong. */
const intSetting = (min: number, max: number) => {
  const message = `必须是 ${min}–${max} 之间的整数`;
  return z.coerce.number({ message }).int(message).min(min, message).max(max, message);
};

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyEntry = (e: string) => {
  if (PROXY_NAMES.includes(e)) return true;
  const [ip, bits, extra] = e.split('/');
  const family = isIP(ip ?? '');
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * Which proxies may tell us the client's address (X-Forwarded-For): `off` (none: the socket's
 * address counts), a hop count (`1` = one proxy in front), or a comma-separated list of proxy
 * IPs/CIDRs. Trusting every sender would let any client pick its IP and escape per-IP limits.
 */
const trustProxySchema = z
  .string()
  .trim()
  .default('off')
  .refine(
    (v) =>
      v === 'off' ||
      /^([1-9]|10)$/.test(v) ||
      v
        .split(',')
        .map((e) => e.trim())
        .every(isProxyEntry),
    '只能是 off、1–10 的代理层数，或以逗号分隔的代理 IP/CIDR（如 10.0.0.0/8,127.0.0.1）',
  )
  .transform((v): false | number | string[] =>
    v === 'off' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((e) => e.trim()),
  );

/** Where host drivers may connect (app/host-networks.ts); unset: nowhere but simulated hosts. */
const hostNetworksSchema = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const parsed = parseHostNetworks(v ?? '');
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }
    return parsed;
  });

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, '必须是 postgres:// 或 postgresql:// 开头的连接串')
    .optional(),
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { message: '只能是 development、production 或 test' })
    .default('development'),
  ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,32}$/, '3–32 位字母、数字、下划线、点或连字符')
    .default('admin'),
  ADMIN_PASSWORD: z.string().min(8, '至少 8 位').max(100, '最多 100 位').optional(),
  APP_SECRET: z.string().min(32, '至少 32 个字符').optional(),
  /** Earlier APP_SECRETs, comma-separated: values sealed under them still open (key rotation). */
  APP_SECRET_PREVIOUS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((l) => l.every((s) => s.length >= 32), '以逗号分隔的旧密钥，每个至少 32 个字符'),
  HOST_NETWORKS: hostNetworksSchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Run the scheduled tasks in this process (each is safe on several replicas). */
  TASKS: z.enum(['on', 'off']).default('on'),
  /**
   * SMS provider: `console` logs the code (and, outside production, answers it); `aliyun` sends it.
   * Production must name `aliyun`.
   */
  SMS_PROVIDER: z.enum(['console', 'aliyun'], { message: '只能是 console 或 aliyun' }).default('console'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
  /** Template of the notice to the old phone after a phone change (parameter `phone`); unset: none is sent. */
  ALIYUN_SMS_NOTICE_TEMPLATE_CODE: z.string().optional(),
  /** Endpoint override (tests point it at a local fake). */
  ALIYUN_SMS_ENDPOINT: z.string().default('dysmsapi.aliyuncs.com'),
  /** Payment provider: `simulated` (a local page pays; not for real money) or `alipay`. */
  PAYMENT_PROVIDER: z.enum(['simulated', 'alipay'], { message: '只能是 simulated 或 alipay' }).optional(),
  /**
   * Blockchain confirmations: `off` (orders stay pending until a chain RPC driver exists) or
   * `simulated` (a local page confirms any order: free money, for demos). Its own choice, never
   * implied by NODE_ENV or PAYMENT_PROVIDER; refused in production.
   */
  CHAIN_PROVIDER: z.enum(['off', 'simulated'], { message: '只能是 off 或 simulated' }).default('off'),
  /** This server's address as customers' devices reach it (QR pages, Alipay's notify URL). */
  PUBLIC_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, '必须是 http:// 或 https:// 开头的地址')
    .optional(),
  ALIPAY_APP_ID: z
    .string()
    .regex(/^\d{10,32}$/, '应为支付宝应用的数字 AppID')
    .optional(),
  /** The application's RSA2 private key (PEM or its base64 body; `\n` escapes allowed). */
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  /** Alipay's public key (not the application's). */
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_GATEWAY: z
    .string()
    .regex(/^https?:\/\//, '必须是 http:// 或 https:// 开头的地址')
    .default('https://openapi.alipay.com/gateway.do'),
  /** Default: PUBLIC_BASE_URL + /api/pay/alipay/notify. */
  ALIPAY_NOTIFY_URL: z
    .string()
    .regex(/^https?:\/\//, '必须是 http:// 或 https:// 开头的地址')
    .optional(),
  /** The merchant's PID; when set, notifications naming another seller are refused. */
  ALIPAY_SELLER_ID: z.string().optional(),
  ALIPAY_TIMEOUT_MS: intSetting(100, 60_000).default(5000),
  /** A stopped instance keeps its data this many days, then it is released (DESIGN §5). */
  INSTANCE_RETENTION_DAYS: intSetting(1, 365).default(15),
  /**
   * How long a provisioning worker owns a create's driver work; after a crash the next sweep
   * takes the create over once this has passed (tests that kill a server shorten it).
   */
  INSTANCE_PROVISION_LEASE_S: intSetting(1, 3600).default(120),
  TRUST_PROXY: trustProxySchema,
  /** Per-IP request limits on sign-in and code endpoints. */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** vast.ai API key (Bearer) for overseas GPUs; unset means the overseas area is not configured. */
  VASTAI_API_KEY: z.string().trim().min(1).optional(),
  /** vast.ai API root (tests and the browser tests point it at a local fake). */
  VASTAI_API_URL: z
    .string()
    .regex(/^https?:\/\//, '必须是 http:// 或 https:// 开头的地址')
    .default('https://console.vast.ai/api/v0'),
  /** Yuan per US dollar for vast.ai prices (e.g. 7.2). */
  VASTAI_USD_CNY: z.coerce
    .number({ message: '必须是 0.1–100 之间的数' })
    .min(0.1, '必须是 0.1–100 之间的数')
    .max(100, '必须是 0.1–100 之间的数')
    .default(USD_CNY_TENTHS / 10),
  /** Margin on vast.ai's price in percent (30 = 1.3 × the converted price). */
  VASTAI_MARGIN_PERCENT: z.coerce
    .number({ message: '必须是 0–500 之间的数' })
    .min(0, '必须是 0–500 之间的数')
    .max(500, '必须是 0–500 之间的数')
    .default(30),
  /** Seconds between refreshes of the stored vast.ai offers (the browser tests shorten it). */
  VASTAI_REFRESH_S: intSetting(1, 86_400).default(300),
  /** Demo tenants, hosts and images on first start; off by default in production. */
  DEMO_DATA: z.enum(['on', 'off']).optional(),
  /** GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it answers 404. */
  METRICS_TOKEN: z.string().min(16, '至少 16 个字符').optional(),
  /** The OpenAPI document and its page at /api/docs: on outside production, off in production. */
  API_DOCS: z.enum(['on', 'off'], { message: '只能是 on 或 off' }).optional(),
  /** Seconds a client has to send a whole request (headers and body); then 408 and the socket closes. */
  REQUEST_TIMEOUT_S: intSetting(1, 600).default(30),
  /** Seconds a client has to send its request headers (at most REQUEST_TIMEOUT_S). */
  HEADERS_TIMEOUT_S: intSetting(1, 600).default(10),
});

export type Config = Omit<z.infer<typeof envSchema>, 'PAYMENT_PROVIDER'> & {
  PAYMENT_PROVIDER: 'simulated' | 'alipay';
  /** PUBLIC_BASE_URL without a trailing slash, else http://localhost:PORT. */
  publicBaseUrl: string;
  dataDir: string;
  appSecret: string;
  /** APP_SECRET_PREVIOUS as a list. */
  appSecretPrevious: string[];
  isProduction: boolean;
  demoData: boolean;
  /** Serve /api/docs (API_DOCS, else on outside production). */
  apiDocs: boolean;
};

export class ConfigError extends Error {}

/** Validates the process settings once; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`配置无效，服务未启动：\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const dataDir = path.resolve(REPO_ROOT, cfg.DATA_DIR);
  const isProduction = cfg.NODE_ENV === 'production';
  if (isProduction && !cfg.APP_SECRET) {
    throw new ConfigError('配置无效，服务未启动：\n  APP_SECRET: 生产环境必须设置（至少 32 个字符）');
  }
  if (cfg.SMS_PROVIDER === 'aliyun') {
    const missing = (
      [
        'ALIYUN_SMS_ACCESS_KEY_ID',
        'ALIYUN_SMS_ACCESS_KEY_SECRET',
        'ALIYUN_SMS_SIGN_NAME',
        'ALIYUN_SMS_TEMPLATE_CODE',
      ] as const
    ).filter((k) => !cfg[k]);
    if (missing.length > 0) {
      throw new ConfigError(
        `配置无效，服务未启动：\n${missing.map((k) => `  ${k}: 使用阿里云短信时必须设置`).join('\n')}`,
      );
    }
  }
  if (cfg.HEADERS_TIMEOUT_S > cfg.REQUEST_TIMEOUT_S) {
    throw new ConfigError(
      `配置无效，服务未启动：\n  HEADERS_TIMEOUT_S: 不能大于 REQUEST_TIMEOUT_S（${cfg.REQUEST_TIMEOUT_S}）`,
    );
  }
  const paymentProvider = checkPayments(cfg, isProduction);
  checkProductionProviders(cfg, paymentProvider, isProduction);
  const appSecret = cfg.APP_SECRET ?? loadOrCreateSecret(dataDir);
  return {
    ...cfg,
    PAYMENT_PROVIDER: paymentProvider,
    publicBaseUrl: (cfg.PUBLIC_BASE_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, ''),
    dataDir,
    appSecret,
    appSecretPrevious: cfg.APP_SECRET_PREVIOUS,
    isProduction,
    demoData: (cfg.DEMO_DATA ?? (isProduction ? 'off' : 'on')) === 'on',
    apiDocs: (cfg.API_DOCS ?? (isProduction ? 'off' : 'on')) === 'on',
  };
}

/**
 * The simulated provider lets anyone pay with a click, so production must name its provider;
 * Alipay needs its app id and both keys.
 */
function checkPayments(cfg: z.infer<typeof envSchema>, isProduction: boolean): 'simulated' | 'alipay' {
  if (!cfg.PAYMENT_PROVIDER && isProduction) {
    throw new ConfigError('配置无效，服务未启动：\n  PAYMENT_PROVIDER: 生产环境必须设置（alipay）');
  }
  const provider = cfg.PAYMENT_PROVIDER ?? 'simulated';
  if (provider === 'alipay') {
    const missing: string[] = (['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const).filter(
      (k) => !cfg[k],
    );
    // Alipay must reach the notify URL; localhost will not do in production.
    if (isProduction && !cfg.PUBLIC_BASE_URL && !cfg.ALIPAY_NOTIFY_URL) missing.push('PUBLIC_BASE_URL');
    if (missing.length > 0) {
      throw new ConfigError(
        `配置无效，服务未启动：\n${missing.map((k) => `  ${k}: 使用支付宝支付时必须设置`).join('\n')}`,
      );
    }
  }
  return provider;
}

/**
 * Production runs no simulated provider: each one hands out money or codes to whoever asks
 * (a page that pays, a page that confirms a chain transfer, codes in the log). Every refused
 * setting is named at once.
 */
function checkProductionProviders(
  cfg: z.infer<typeof envSchema>,
  paymentProvider: 'simulated' | 'alipay',
  isProduction: boolean,
) {
  if (!isProduction) return;
  const problems: string[] = [];
  if (paymentProvider === 'simulated')
    problems.push('PAYMENT_PROVIDER: 生产环境不能使用模拟支付（任何人点击即可免费充值），请设置为 alipay');
  if (cfg.CHAIN_PROVIDER === 'simulated')
    problems.push('CHAIN_PROVIDER: 生产环境不能使用模拟区块链（任何人点击即可确认到账），请设置为 off');
  if (cfg.SMS_PROVIDER === 'console')
    problems.push('SMS_PROVIDER: 生产环境必须设置为 aliyun（console 只把验证码写进日志，用户收不到）');
  if (problems.length > 0)
    throw new ConfigError(`配置无效，服务未启动：\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

/** The start-up banner's lines about the outside world: each provider, and which are simulated. */
export function providerBanner(config: Config): string[] {
  const simulated = [
    config.PAYMENT_PROVIDER === 'simulated' && '支付',
    config.CHAIN_PROVIDER === 'simulated' && '区块链',
    config.SMS_PROVIDER === 'console' && '短信',
  ].filter((x): x is string => Boolean(x));
  const lines = [
    `  支付: ${config.PAYMENT_PROVIDER === 'alipay' ? '支付宝' : '模拟支付（扫码打开本机页面，点击即到账，不产生真实扣款）'}`,
    `  区块链: ${config.CHAIN_PROVIDER === 'simulated' ? '模拟区块链（确认页点击即到账，不涉及真实转账）' : '未开通（订单保持待确认）'}`,
    `  短信: ${config.SMS_PROVIDER === 'aliyun' ? '阿里云短信' : '控制台（验证码只写进日志，不发送）'}`,
  ];
  if (simulated.length > 0)
    lines.push(
      `  模拟的外部服务: ${simulated.join('、')}（任何人都能免费充值或取得验证码，切勿用于真实用户）`,
    );
  return lines;
}

/** The embedded default keeps one generated secret in DATA_DIR so tokens survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
