import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../platform/clock.ts';
import { createTestApp, testConfig } from '../../../../test/test-app.ts';
import { paymentProviderContract } from '../payment-drivers.test-suite.ts';
import { createPaymentDriver } from '../registry.ts';
import { notify, START } from './alipay.test-helpers.ts';
import { startFakeAlipayGateway } from './fake-alipay-gateway.ts';

paymentProviderContract('alipay (local fake gateway)', async () => {
  const gateway = await startFakeAlipayGateway();
  const clock = fixedClock(START);
  const t = await createTestApp({ clock, demo: false, config: gateway.config });
  return {
    t,
    clock,
    // The customer scans and pays at Alipay; Alipay posts its notification.
    pay: async (order) => {
      const trade = gateway.pay(order.orderNo);
      if (trade) expect(await notify(t, gateway.notification(trade))).toBe('success');
    },
    close: async () => {
      await t.close();
      await gateway.close();
    },
  };
});

describe('alipay settings', () => {
  it('takes PKCS#1, PKCS#8 and bare base64 keys with \\n escapes, and refuses broken ones', async () => {
    const gateway = await startFakeAlipayGateway();
    try {
      const db = {} as never;
      const variants = [
        gateway.config.ALIPAY_PRIVATE_KEY,
        gateway.appPrivateKeyPkcs1,
        gateway.config.ALIPAY_PRIVATE_KEY?.replaceAll('\n', '\\n'),
        gateway.appPrivateKeyPkcs1
          .split('\n')
          .filter((l) => l && !l.startsWith('-----'))
          .join(''),
        gateway.config.ALIPAY_PRIVATE_KEY?.split('\n')
          .filter((l) => l && !l.startsWith('-----'))
          .join(''),
      ];
      for (const key of variants) {
        const driver = createPaymentDriver(
          testConfig({ ...gateway.config, ALIPAY_PRIVATE_KEY: key as string }),
          { db },
        );
        const qr = await driver.createQr({
          orderNo: `RC${Date.now()}${Math.random().toString().slice(2, 8)}`,
          amount: 1_000_000,
          subject: 's',
          body: 'b',
          expiresAt: new Date(),
        });
        expect(qr.qrCode).toContain('fake');
      }
      expect(gateway.calls.every((c) => c.validSignature)).toBe(true);
      expect(() =>
        createPaymentDriver(testConfig({ ...gateway.config, ALIPAY_PRIVATE_KEY: 'bm90IGEga2V5' }), { db }),
      ).toThrow(/ALIPAY_PRIVATE_KEY/);
      expect(() =>
        createPaymentDriver(testConfig({ ...gateway.config, ALIPAY_PUBLIC_KEY: 'bm90IGEga2V5' }), { db }),
      ).toThrow(/ALIPAY_PUBLIC_KEY/);
    } finally {
      await gateway.close();
    }
  });

  it('refuses answers not signed by Alipay', async () => {
    const gateway = await startFakeAlipayGateway();
    const other = await startFakeAlipayGateway();
    try {
      // Our settings trust `other`'s Alipay key, but talk to `gateway`.
      const driver = createPaymentDriver(
        testConfig({ ...gateway.config, ALIPAY_PUBLIC_KEY: other.config.ALIPAY_PUBLIC_KEY as string }),
        { db: {} as never },
      );
      await expect(driver.query('RC1')).rejects.toThrow(/验签失败|sign/);
    } finally {
      await gateway.close();
      await other.close();
    }
  });

  it('needs app id and keys, and a public address in production', () => {
    expect(() => testConfig({ PAYMENT_PROVIDER: 'alipay' })).toThrow(
      /ALIPAY_APP_ID: 使用支付宝支付时必须设置/,
    );
    expect(() =>
      testConfig({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'alipay',
        ALIPAY_APP_ID: '2021000000000001',
        ALIPAY_PRIVATE_KEY: 'x',
        ALIPAY_PUBLIC_KEY: 'y',
      }),
    ).toThrow(/PUBLIC_BASE_URL/);
  });
});
