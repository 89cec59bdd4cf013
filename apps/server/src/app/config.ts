import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.ts';
import { checkPayments, checkProductionProviders } from './config-providers.ts';
import { type Config, ConfigError, type Env, envSchema } from './config-schema.ts';

// The schema and the provider rules live beside this file; importers keep reading app/config.ts.
export { providerBanner } from './config-providers.ts';
export type { Config };
export { ConfigError, REPO_ROOT };

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
    apiDocs: apiDocsAudience(cfg.API_DOCS, isProduction),
    webhookAllowPrivate: (cfg.WEBHOOK_ALLOW_PRIVATE ?? (isProduction ? 'off' : 'on')) === 'on',
  };
}

/** API_DOCS as its audience; the old `on`/`off` mean public/signed-in. */
function apiDocsAudience(value: Env['API_DOCS'], isProduction: boolean): Config['apiDocs'] {
  if (value === 'on' || value === 'public') return 'public';
  if (value === 'off' || value === 'signed-in') return 'signed-in';
  return isProduction ? 'signed-in' : 'public';
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
