import { formatMoney, unitsToYuan } from '@gpu/shared/money';
import { computeOrderPrice } from '@gpu/shared/pricing';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { orderFigures } from '../order-figures';
import { marketItem } from '../test-fixtures';
import { OrderBar } from './OrderBar';

const shown = (testId: string) => screen.getByTestId(testId).textContent?.replace(/^−/, '');
const yuan = (units: number) => formatMoney(unitsToYuan(units));

describe('OrderBar shows the figures of computeOrderPrice', { timeout: 30_000 }, () => {
  const rtx4090 = marketItem({
    originalPrice: 1.98,
    price: 1.98,
    discountPrice: 1.58,
    discountRate: 0.8,
    hasDiscount: true,
  });
  const cases = [
    { item: marketItem(), billingType: 'daily' as const, duration: 3, gpuAmount: 2, voucher: null },
    { item: rtx4090, billingType: 'hourly' as const, duration: 1, gpuAmount: 4, voucher: 1.5 },
    { item: rtx4090, billingType: 'monthly' as const, duration: 2, gpuAmount: 1, voucher: 200 },
  ];
  for (const c of cases) {
    it(`${c.billingType} ×${c.duration}, ${c.gpuAmount} GPU(s), voucher ${c.voucher ?? 'none'}`, () => {
      const figures = orderFigures({
        item: c.item,
        billingType: c.billingType,
        duration: c.duration,
        gpuAmount: c.gpuAmount,
        packagePrices: null,
        discountLive: true,
        voucherRemaining: c.voucher,
      });
      const expected = computeOrderPrice({
        hourlyPrice: Math.round(c.item.originalPrice * 10_000),
        billingType: c.billingType,
        duration: c.duration,
        gpuAmount: c.gpuAmount,
        discountRateBp: c.item.hasDiscount ? 8_000 : null,
        voucherRemaining: c.voucher === null ? null : c.voucher * 10_000,
      });
      render(
        <MemoryRouter>
          <OrderBar
            figures={figures}
            billingType={c.billingType}
            duration={c.duration}
            quote={null}
            balance={null}
            blockedReason={null}
            creating={false}
            onCreate={() => {}}
          />
        </MemoryRouter>,
      );
      expect(shown('bar-original')).toBe(yuan(expected.originalAmount));
      expect(shown('bar-discount')).toBe(yuan(expected.discountAmount));
      expect(shown('bar-voucher')).toBe(yuan(expected.voucherDeduction));
      expect(shown('bar-payable')).toBe(yuan(expected.payableAmount));
    });
  }

  it('warns when the balance is short and disables create with the reason', () => {
    const figures = orderFigures({
      item: marketItem(),
      billingType: 'daily',
      duration: 1,
      gpuAmount: 1,
      packagePrices: null,
      discountLive: true,
      voucherRemaining: null,
    });
    render(
      <MemoryRouter>
        <OrderBar
          figures={figures}
          billingType="daily"
          duration={1}
          quote="verified"
          balance={10}
          blockedReason="请先选择镜像"
          creating={false}
          onCreate={() => {}}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('bar-balance').textContent).toContain('余额不足');
    expect(screen.getByRole('link', { name: '去充值' }).getAttribute('href')).toBe('/recharge');
    expect((screen.getByTestId('create-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('bar-blocked').textContent).toBe('请先选择镜像');
    expect(screen.getByTestId('quote-state').dataset.state).toBe('verified');
  });
});
