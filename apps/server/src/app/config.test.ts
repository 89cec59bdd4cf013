import { describe, expect, it } from 'vitest';
import { productionSettings } from '../test/test-app.ts';
import { ConfigError, loadConfig, providerBanner } from './config.ts';

const base = { APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/gpu-config-test' };

describe('config', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ ...base });
    expect(c.PORT).toBe(8080);
    expect(c.NODE_ENV).toBe('development');
    expect(c.ADMIN_USERNAME).toBe('admin');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toBe('/tmp/gpu-config-test');
    expect(c.demoData).toBe(true);
    // Nobody may pick their own address through X-Forwarded-For unless a proxy is named.
    expect(c.TRUST_PROXY).toBe(false);
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(loadConfig({ ...base, TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback']);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ADMIN_USERNAME: 'a b' }, 'ADMIN_USERNAME'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,example.com' }, 'TRUST_PROXY'],
  ])('refuses %o with a message naming %s', (env, name) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`${name}:`));
  });

  it('refuses production without APP_SECRET and turns demo data off there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/x' })).toThrow(/APP_SECRET/);
    expect(loadConfig({ ...base, ...productionSettings() }).demoData).toBe(false);
  });

  it('refuses production with any simulated provider or the console SMS, naming each setting', () => {
    const prod: Record<string, string> = { ...base, ...productionSettings() };
    const c = loadConfig(prod);
    expect([c.PAYMENT_PROVIDER, c.CHAIN_PROVIDER, c.SMS_PROVIDER]).toEqual(['alipay', 'off', 'aliyun']);
    expect(() => loadConfig({ ...prod, PAYMENT_PROVIDER: 'simulated' })).toThrow(
      /PAYMENT_PROVIDER: 生产环境不能使用模拟支付/,
    );
    expect(() => loadConfig({ ...prod, CHAIN_PROVIDER: 'simulated' })).toThrow(
      /CHAIN_PROVIDER: 生产环境不能使用模拟区块链/,
    );
    expect(() => loadConfig({ ...prod, SMS_PROVIDER: 'console' })).toThrow(
      /SMS_PROVIDER: 生产环境必须设置为 aliyun/,
    );
    // Left out, the SMS setting would be the console: refused too. Every problem is named at once.
    const { SMS_PROVIDER: _sms, ...noSms } = prod;
    expect(() =>
      loadConfig({ ...noSms, PAYMENT_PROVIDER: 'simulated', CHAIN_PROVIDER: 'simulated' }),
    ).toThrow(/PAYMENT_PROVIDER:[\s\S]*CHAIN_PROVIDER:[\s\S]*SMS_PROVIDER:/);
    expect(() => loadConfig({ ...base, CHAIN_PROVIDER: 'tron' })).toThrow(/CHAIN_PROVIDER:/);
  });

  it('chooses each simulated provider by its own setting: the chain is off unless named', () => {
    expect(loadConfig({ ...base }).CHAIN_PROVIDER).toBe('off');
    // Real payments elsewhere do not turn the simulated chain on, nor off.
    expect(loadConfig({ ...base, PAYMENT_PROVIDER: 'simulated' }).CHAIN_PROVIDER).toBe('off');
    expect(loadConfig({ ...base, CHAIN_PROVIDER: 'simulated' }).CHAIN_PROVIDER).toBe('simulated');
  });

  it('API docs are public outside production, for signed-in users in production; request timeouts', () => {
    const dev = loadConfig({ ...base });
    expect(dev.apiDocs).toBe('public');
    expect([dev.REQUEST_TIMEOUT_S, dev.HEADERS_TIMEOUT_S]).toEqual([30, 10]);
    expect(loadConfig({ ...base, API_DOCS: 'signed-in' }).apiDocs).toBe('signed-in');
    expect(loadConfig({ ...base, ...productionSettings() }).apiDocs).toBe('signed-in');
    expect(loadConfig({ ...base, ...productionSettings(), API_DOCS: 'public' }).apiDocs).toBe('public');
    // The old names still work: on = public, off = signed-in.
    expect(loadConfig({ ...base, ...productionSettings(), API_DOCS: 'on' }).apiDocs).toBe('public');
    expect(loadConfig({ ...base, API_DOCS: 'off' }).apiDocs).toBe('signed-in');
    expect(() => loadConfig({ ...base, API_DOCS: 'yes' })).toThrow(/API_DOCS: 只能是 public 或 signed-in/);
    expect(() => loadConfig({ ...base, REQUEST_TIMEOUT_S: '0' })).toThrow(/REQUEST_TIMEOUT_S:/);
    expect(() => loadConfig({ ...base, HEADERS_TIMEOUT_S: '40' })).toThrow(
      /HEADERS_TIMEOUT_S: 不能大于 REQUEST_TIMEOUT_S/,
    );
  });

  it('DATABASE_POOL_SIZE: unset leaves the default to the database (10); 1–500 only', () => {
    expect(loadConfig({ ...base }).DATABASE_POOL_SIZE).toBeUndefined();
    expect(loadConfig({ ...base, DATABASE_POOL_SIZE: '12' }).DATABASE_POOL_SIZE).toBe(12);
    for (const bad of ['0', '501', '2.5', 'many'])
      expect(() => loadConfig({ ...base, DATABASE_POOL_SIZE: bad })).toThrow(
        /DATABASE_POOL_SIZE: 必须是 1–500 之间的整数/,
      );
  });

  it('names the simulated providers in the start-up banner', () => {
    const dev = providerBanner(loadConfig({ ...base })).join('\n');
    expect(dev).toContain('模拟支付');
    expect(dev).toContain('短信: 控制台');
    expect(dev).toContain('区块链: 未开通');
    expect(dev).toMatch(/模拟的外部服务: 支付、短信/);
    const chain = providerBanner(loadConfig({ ...base, CHAIN_PROVIDER: 'simulated' })).join('\n');
    expect(chain).toMatch(/模拟的外部服务: 支付、区块链、短信/);
    const prod = providerBanner(loadConfig({ ...base, ...productionSettings() })).join('\n');
    expect(prod).toContain('支付: 支付宝');
    expect(prod).toContain('短信: 阿里云');
    expect(prod).not.toContain('模拟的外部服务');
  });

  it('chooses the payment provider: simulated by default, named explicitly in production', () => {
    const c = loadConfig({ ...base, PORT: '9000' });
    expect(c.PAYMENT_PROVIDER).toBe('simulated');
    expect(c.publicBaseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: 'https://gpu.example.cn/' }).publicBaseUrl).toBe(
      'https://gpu.example.cn',
    );
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /PAYMENT_PROVIDER: 生产环境必须设置/,
    );
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'wechat' })).toThrow(/PAYMENT_PROVIDER:/);
    expect(() => loadConfig({ ...base, PUBLIC_BASE_URL: 'gpu.example.cn' })).toThrow(/PUBLIC_BASE_URL:/);
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'alipay' })).toThrow(
      /ALIPAY_APP_ID: 使用支付宝支付时必须设置[\s\S]*ALIPAY_PUBLIC_KEY/,
    );
    expect(() => loadConfig({ ...base, ALIPAY_TIMEOUT_MS: '10' })).toThrow(/ALIPAY_TIMEOUT_MS:/);
  });

  it('generates a secret once and keeps it in DATA_DIR', () => {
    const dir = `/tmp/gpu-config-secret-${process.pid}-${Date.now()}`;
    const a = loadConfig({ DATA_DIR: dir }).appSecret;
    const b = loadConfig({ DATA_DIR: dir }).appSecret;
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(b).toBe(a);
  });
});
