import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { instance } from '../test-fixtures';
import { BillingCell } from './cells';
import { InstanceActions } from './InstanceActions';
import { NoGpuConfirm } from './NoGpuConfirm';
import { StatusTag } from './StatusTag';

// No-GPU mode (无卡模式开机, issue 30) in the console's row, card and confirmation.
const base = instance();
const NOW = new Date('2025-06-01T06:00:00.000Z');
const item = async (text: RegExp) => (await screen.findByText(text)).closest('li') as HTMLElement;

describe('更多 → 无卡模式开机', () => {
  it('is offered on a powered-off pay-as-you-go instance and asks for powerOnNoGpu', async () => {
    const onAction = vi.fn();
    render(<InstanceActions inst={base} now={NOW} busy={false} onAction={onAction} />);
    fireEvent.click(screen.getByRole('button', { name: /更多/ }));
    const entry = await item(/^无卡模式开机$/);
    expect(entry.getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.click(entry);
    expect(onAction).toHaveBeenCalledWith('powerOnNoGpu', base);
  });
  it('is disabled while it runs, and absent where the mode is not offered (packages)', async () => {
    const { rerender } = render(
      <InstanceActions inst={{ ...base, status: 'RUNNING' }} now={NOW} busy={false} onAction={vi.fn()} />,
    );
    fireEvent.click(screen.getByRole('button', { name: /更多/ }));
    expect((await item(/无卡模式开机（需先关机）/)).getAttribute('aria-disabled')).toBe('true');
    rerender(
      <InstanceActions
        inst={{ ...base, billingType: 'daily', noGpuPrice: null }}
        now={NOW}
        busy={false}
        onAction={vi.fn()}
      />,
    );
    expect(screen.queryByText(/无卡模式开机/)).toBeNull();
  });
});

describe('no-GPU mode on the row', () => {
  it('tags the status and bills at the no-GPU price while it runs so', () => {
    const on = { ...base, status: 'RUNNING' as const, noGpu: true };
    render(
      <>
        <StatusTag status={on.status} noGpu />
        <BillingCell inst={on} />
      </>,
    );
    expect(screen.getByTestId('instance-nogpu').textContent).toBe('无卡模式');
    expect(screen.getByText('¥0.10/时')).toBeTruthy();
    expect(screen.getByTestId('instance-nogpu-billing').textContent).toBe('无卡模式计费中');
  });
  it('shows the GPU price otherwise', () => {
    render(<BillingCell inst={base} />);
    expect(screen.getByText('¥6.82/时')).toBeTruthy();
    expect(screen.queryByTestId('instance-nogpu-billing')).toBeNull();
  });
  it('the confirmation leads with the price and says what the mode is for', () => {
    render(<NoGpuConfirm inst={{ ...base, noGpuPrice: 0.25 }} />);
    expect(screen.getByTestId('nogpu-price').textContent).toBe('¥0.25/时');
    expect(screen.getByTestId('nogpu-confirm').textContent).toContain('安装软件包、配置环境');
  });
});
