import { isIP } from 'node:net';
import { CHAIN_ADDRESS_PATTERNS } from '@gpu/shared/blockchain';
import { USD_CNY_TENTHS } from '@gpu/shared/constants';
import { z } from 'zod';
import { parseHostNetworks } from '../platform/host-networks.ts';

// The process settings loadConfig accepts (app/config.ts), each with its range and its message.

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

export const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, '必须是 postgres:// 或 postgresql:// 开头的连接串')
    .optional(),
  /**
   * Connections each process keeps to PostgreSQL; default 10 (DEFAULT_POOL_SIZE in
   * platform/db/client.ts).
   */
  DATABASE_POOL_SIZE: intSetting(1, 500).optional(),
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
  /** Template of notification SMS (parameters `title`, `content`); unset: notification SMS are not sent. */
  ALIYUN_SMS_EVENT_TEMPLATE_CODE: z.string().optional(),
  /**
   * Webhook URLs may reach loopback and private addresses (tests' local receivers); default on
   * outside production, off in production (a customer's URL must not reach our network).
   */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['on', 'off'], { message: '只能是 on 或 off' }).optional(),
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
  /**
   * Our receiving address on each network (SPEC §7 Blockchain), shown on /blockchain with its QR.
   * Unset outside production: a demo address, marked as such on the page; unset in production:
   * the network is not offered (no address is ever made up there).
   */
  CHAIN_TRON_ADDRESS: z
    .string()
    .regex(CHAIN_ADDRESS_PATTERNS.TRON, 'TRON 地址应为 T 开头的 34 位 base58 地址')
    .optional(),
  CHAIN_ETHEREUM_ADDRESS: z
    .string()
    .regex(CHAIN_ADDRESS_PATTERNS.ETHEREUM, '以太坊地址应为 0x 开头的 40 位十六进制')
    .optional(),
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
  /**
   * A Docker registry (host[:port][/path]) every GPU host can push to and pull from: users' saved
   * images are pushed there and usable on every host; unset, each stays on the host that made it.
   */
  IMAGE_REGISTRY: z
    .string()
    .trim()
    .regex(/^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)*$/, 'IMAGE_REGISTRY: host[:port][/path]')
    .optional(),
  TRUST_PROXY: trustProxySchema,
  /**
   * Verification codes one address may ask for in a day (several customers behind one NAT share
   * it; the browser tests register many users from one address). The per-phone cap stays 10.
   */
  CODE_DAILY_CAP_PER_IP: intSetting(1, 100_000).default(30),
  /**
   * Seconds the back office's statistics over whole tables (dashboards, user and balance
   * figures) are reused before they are computed again; the screens show their age. 0: always
   * fresh (the tests that read figures right after writing them).
   */
  ADMIN_STATS_CACHE_S: intSetting(0, 3_600).default(30),
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
  /**
   * Who reads the customer OpenAPI document: `public` (the page at /api/docs and its JSON without
   * sign-in; default outside production) or `signed-in` (the JSON for signed-in users, the page in
   * the console; default in production). `on` and `off` are the old names of the two.
   */
  API_DOCS: z
    .enum(['public', 'signed-in', 'on', 'off'], { message: '只能是 public 或 signed-in' })
    .optional(),
  /** Seconds a client has to send a whole request (headers and body); then 408 and the socket closes. */
  REQUEST_TIMEOUT_S: intSetting(1, 600).default(30),
  /** Seconds a client has to send its request headers (at most REQUEST_TIMEOUT_S). */
  HEADERS_TIMEOUT_S: intSetting(1, 600).default(10),
});

/** The settings as parsed, before loadConfig's defaults and cross-field checks. */
export type Env = z.infer<typeof envSchema>;

export type Config = Omit<Env, 'PAYMENT_PROVIDER'> & {
  PAYMENT_PROVIDER: 'simulated' | 'alipay';
  /** PUBLIC_BASE_URL without a trailing slash, else http://localhost:PORT. */
  publicBaseUrl: string;
  dataDir: string;
  appSecret: string;
  /** APP_SECRET_PREVIOUS as a list. */
  appSecretPrevious: string[];
  isProduction: boolean;
  demoData: boolean;
  /** Who reads /api/docs (API_DOCS, else public outside production, signed-in in production). */
  apiDocs: 'public' | 'signed-in';
  /** Webhooks may reach loopback/private addresses (WEBHOOK_ALLOW_PRIVATE, else on outside production). */
  webhookAllowPrivate: boolean;
};

/** Settings refused at start-up (loadConfig, the provider checks); main prints the message and exits. */
export class ConfigError extends Error {}
