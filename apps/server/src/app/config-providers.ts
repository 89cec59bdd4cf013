import { type Config, ConfigError, type Env } from './config-schema.ts';

/**
 * The simulated provider lets anyone pay with a click, so production must name its provider;
 * Alipay needs its app id and both keys.
 */
export function checkPayments(cfg: Env, isProduction: boolean): 'simulated' | 'alipay' {
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
export function checkProductionProviders(
  cfg: Env,
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
