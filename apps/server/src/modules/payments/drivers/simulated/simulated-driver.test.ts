import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../platform/clock.ts';
import { createTestApp } from '../../../../test/test-app.ts';
import { balanceOf, createOrder, paymentProviderContract } from '../payment-drivers.test-suite.ts';

const START = '2026-11-22T08:00:00Z';

paymentProviderContract('simulated', async () => {
  const clock = fixedClock(START);
  const t = await createTestApp({ clock, demo: false });
  return {
    t,
    clock,
    // The customer opens the QR page and presses 确认支付.
    pay: async (order) => {
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(order.qrCode).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect([200, 404]).toContain(res.statusCode);
    },
    close: () => t.close(),
  };
});

describe('simulated payment page', () => {
  it('is an absolute URL of this server, shows the order in zh-CN and pays with its button', async () => {
    const clock = fixedClock(START);
    const t = await createTestApp({
      clock,
      demo: false,
      config: { PUBLIC_BASE_URL: 'http://gpu.example.test:8080/' },
    });
    try {
      const { headers } = await t.createUser();
      const order = await createOrder(t, headers, 1000);
      expect(order.qrCode).toBe(`http://gpu.example.test:8080/api/pay/simulated/${order.orderNo}`);
      const path = new URL(order.qrCode).pathname;

      const page = await t.app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('lang="zh-CN"');
      expect(page.body).toContain(order.orderNo);
      expect(page.body).toContain('¥1000.00');
      expect(page.body).toContain('确认支付');
      expect(page.body).toMatch(/<form method="post">/);

      // What the button's form sends.
      const paid = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(paid.statusCode).toBe(200);
      expect(paid.body).toContain('支付成功');
      expect(paid.body).not.toContain('确认支付</button>');
      expect(await balanceOf(t, headers)).toBe(1000);
      // Also without a body at all.
      expect((await t.app.inject({ method: 'POST', url: path })).body).toContain('支付成功');
      expect(await balanceOf(t, headers)).toBe(1000);

      const unknown = await t.app.inject({ method: 'GET', url: '/api/pay/simulated/RC000' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('订单不存在');

      clock.advance(1000);
      const late = await createOrder(t, headers, 200);
      clock.advance(600_000);
      const closed = await t.app.inject({ method: 'GET', url: new URL(late.qrCode).pathname });
      expect(closed.body).toContain('订单已关闭');
      expect((await t.app.inject({ method: 'POST', url: new URL(late.qrCode).pathname })).body).toContain(
        '订单已关闭',
      );
      expect(await balanceOf(t, headers)).toBe(1000);
    } finally {
      await t.close();
    }
  });

  it('shows our subject ("{tenant} 账户充值 ¥1,000.00"), never what the customer typed', async () => {
    const t = await createTestApp({ demo: false });
    try {
      const { headers, user } = await t.createUser();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/pay/createQrCode',
        headers,
        payload: { amount: 1000, subject: '<script>alert(1)</script>' },
      });
      const page = await t.app.inject({ method: 'GET', url: new URL(res.json().data.qrCode).pathname });
      const tenant = await t.app.deps.modules.tenants.service.resolve('localhost');
      expect(tenant.id).toBe(user.tenantId);
      expect(page.body).toContain(`<dd>${tenant.name} 账户充值 ¥1,000.00</dd>`);
      expect(page.body).not.toContain('script');
    } finally {
      await t.close();
    }
  });

  it('does not exist when Alipay is the provider', async () => {
    const { startFakeAlipayGateway } = await import('../alipay/fake-alipay-gateway.ts');
    const gateway = await startFakeAlipayGateway();
    const t = await createTestApp({ demo: false, config: gateway.config });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/pay/simulated/RC1' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: '/api/pay/simulated/RC1' })).json().code).toBe('404');
    } finally {
      await t.close();
      await gateway.close();
    }
  });
});
