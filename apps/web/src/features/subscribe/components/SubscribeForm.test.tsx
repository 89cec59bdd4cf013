import type { User } from '@gpu/shared/auth';
import { APP_EVENTS } from '@gpu/shared/constants';
import type { ImageMap } from '@gpu/shared/images';
import { instanceMessages } from '@gpu/shared/instances';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUserSession } from '../../../lib/session';
import { image, marketItem } from '../test-fixtures';
import { createFailureMessage } from '../use-submit-order';
import { SubscribeForm } from './SubscribeForm';

const notify = vi.hoisted(() => vi.fn());
const confirmDialog = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/feedback', () => ({ notify, confirmDialog }));

/** A package asks first (amount, duration, expiry, rule); answers OK and returns what it showed. */
async function confirmPackage(): Promise<string> {
  await waitFor(() => expect(confirmDialog).toHaveBeenCalledTimes(1));
  const options = confirmDialog.mock.calls[0]?.[0] as { content: React.ReactElement; onOk: () => void };
  const shown = render(options.content);
  const text = shown.container.textContent ?? '';
  shown.unmount();
  await act(async () => {
    options.onOk();
  });
  return text;
}

const item = marketItem({ gpuIdleNum: 3 });
const pytorch = image({ imageUrl: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4' });
const IMAGE_MAP: ImageMap = { pytorch: { '2.5.1': { '3.12': [pytorch] } } };

const ok = (data: unknown) => ({ success: true, code: '200', message: 'ok', data });
const fail = (status: number, message: string) => ({
  success: false,
  code: String(status),
  message,
  data: null,
});

type Route = (init: RequestInit) => [number, unknown];
let routes: Record<string, Route>;
let calls: { path: string; body: unknown; key?: string }[];

function mockApi() {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = new URL(url, 'http://x').pathname;
      calls.push({
        path,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        key: (init.headers as Record<string, string>)['Idempotency-Key'],
      });
      const route = routes[path];
      const [status, body] = route ? route(init) : [404, fail(404, '接口不存在')];
      return new Response(JSON.stringify(body), { status });
    }),
  );
}

function renderForm(billingType: 'hourly' | 'daily' = 'daily') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/subscribe',
        element: <SubscribeForm item={item} billingType={billingType} onBillingChange={() => {}} />,
      },
      { path: '/console', element: <p>console</p> },
    ],
    { initialEntries: ['/subscribe'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const createButton = () => screen.getByTestId('create-button') as HTMLButtonElement;
const pick = (group: string, name: string) =>
  fireEvent.click(screen.getByTestId(group).querySelector(`input[aria-label="${name}"]`) as HTMLElement);

async function chooseImage() {
  fireEvent.click(screen.getByTestId('image-trigger'));
  await screen.findByTestId('image-framework');
  pick('image-framework', 'PyTorch');
  pick('image-version', '2.5.1');
  pick('image-python', 'Python 3.12');
  pick('image-accelerator', 'CUDA 12.4');
  fireEvent.click(screen.getByTestId('image-confirm'));
  await waitFor(() => expect(screen.queryByTestId('image-panel')).toBeNull());
}

beforeEach(() => {
  setUserSession('token', { id: 1, username: 'u' } as User);
  notify.mockReset();
  confirmDialog.mockReset();
  routes = {
    '/api/gpu/images': () => [200, ok({ imageMap: IMAGE_MAP, imageList: [pytorch] })],
    '/api/v2/package-billing/pricing/by-gpu': () => [200, ok([])],
    '/api/v2/package-billing/calculate-price': () => [500, fail(500, 'down')],
    '/api/user/balance': () => [200, ok({ available: 500, frozen: 0, total: 500 })],
    '/api/gpu/instance/create': () => [200, ok({ id: 9, name: 'x' })],
    '/api/user/vouchers/available': () => [200, ok({ list: [], total: 0, page: 0, size: 100 })],
  };
  mockApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

// antd in jsdom is slow, the more so on a busy machine.
describe('SubscribeForm', { timeout: 30_000 }, () => {
  it('enables create only with a chosen image and a valid name', async () => {
    renderForm();
    await screen.findByTestId('voucher-summary'); // no vouchers yet
    expect(createButton().disabled).toBe(true);
    await chooseImage();
    expect(screen.getByTestId('image-selected').textContent).toBe('PyTorch 2.5.1 · Python 3.12 · CUDA 12.4');
    await waitFor(() => expect(createButton().disabled).toBe(false));

    const name = screen.getByTestId('instance-name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: '' } });
    expect(createButton().disabled).toBe(true);
    expect(screen.getByTestId('instance-name-message').textContent).toBe(instanceMessages.nameRequired);
    fireEvent.change(name, { target: { value: '-my_box 01--a-' } });
    expect(name.value).toBe('mybox01-a-');
    expect(screen.getByTestId('instance-name-message').textContent).toBe(instanceMessages.nameInvalid);
    expect(createButton().disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'my-box' } });
    expect(createButton().disabled).toBe(false);
  });

  it('blocks key presses of characters a name may not hold', () => {
    renderForm();
    const name = screen.getByTestId('instance-name');
    expect(fireEvent.keyDown(name, { key: '_' })).toBe(false);
    expect(fireEvent.keyDown(name, { key: ' ' })).toBe(false);
    expect(fireEvent.keyDown(name, { key: 'a' })).toBe(true);
    expect(fireEvent.keyDown(name, { key: '-' })).toBe(true);
    expect(fireEvent.keyDown(name, { key: 'Backspace' })).toBe(true);
    expect(fireEvent.keyDown(name, { key: 'v', ctrlKey: true })).toBe(true);
  });

  it('creates without a voucherId when none is chosen, then toasts, tells the app and goes to /console', async () => {
    const created = vi.fn();
    const balance = vi.fn();
    window.addEventListener(APP_EVENTS.instanceCreated, created);
    window.addEventListener(APP_EVENTS.balance, balance);
    const router = renderForm();
    await chooseImage();
    await waitFor(() => expect(createButton().disabled).toBe(false));
    fireEvent.click(screen.getByTestId('duration').querySelector('input[value="3"]') as HTMLElement);
    fireEvent.click(screen.getByTestId('gpu-count').querySelector('input[value="2"]') as HTMLElement);
    await act(async () => {
      fireEvent.click(createButton());
    });
    // Nothing is bought before the confirm: it shows the amount, the duration and the expiry.
    expect(calls.some((c) => c.path === '/api/gpu/instance/create')).toBe(false);
    const shown = await confirmPackage();
    expect(shown).toContain('3天（共 72 小时）');
    expect(shown).toMatch(/到期时间\d{4}-\d{2}-\d{2} \d{2}:\d{2}（北京时间）/);
    expect(shown).toContain('到期时系统自动关机');
    expect(shown).toMatch(/扣款金额¥[\d,]+\.\d{2}/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/console'));

    const body = calls.find((c) => c.path === '/api/gpu/instance/create')?.body as Record<string, unknown>;
    expect(body).toEqual({
      machineId: item.id,
      instanceName: expect.stringMatching(/^L40S-\d{10}$/),
      image: pytorch.imageUrl,
      gpuAmount: 2,
      duration: 3,
      billingType: 'daily',
    });
    expect('voucherId' in body).toBe(false);
    // One key for this click, so a retry cannot buy a second instance.
    expect(calls.find((c) => c.path === '/api/gpu/instance/create')?.key).toMatch(/^[0-9a-f]{32}$/);
    // Accepted is not running: the order is placed; SPEC's success text waits for RUNNING
    // (instances' CreationWatcher).
    expect(notify).toHaveBeenCalledWith('info', '订单已提交，正在创建实例，创建完成后开始计费');
    expect(notify).not.toHaveBeenCalledWith('success', '容器创建成功，计费已开始！');
    expect(created).toHaveBeenCalledTimes(1);
    expect(balance).toHaveBeenCalledTimes(1);
    window.removeEventListener(APP_EVENTS.instanceCreated, created);
    window.removeEventListener(APP_EVENTS.balance, balance);
  });

  it('sends the chosen voucher and shows its deduction', async () => {
    routes['/api/user/vouchers/available'] = () => [
      200,
      ok({
        list: [
          {
            id: 77,
            voucherName: 'L40S 专享券',
            amount: 50,
            remainingAmount: 20,
            status: 'UNUSED',
            expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
            gpuType: 'L40S',
            regionId: item.regionId,
            regionName: item.regionName,
          },
        ],
      }),
    ];
    renderForm();
    await screen.findByText('1 张可用');
    fireEvent.click(screen.getByTestId('voucher-open'));
    fireEvent.click(await screen.findByRole('button', { name: '使用 L40S 专享券' }));
    await screen.findByTestId('voucher-chosen');
    expect(screen.getByTestId('bar-voucher').textContent).toBe('−¥20.00');
    await chooseImage();
    await act(async () => {
      fireEvent.click(createButton());
    });
    await confirmPackage();
    await waitFor(() => expect(calls.some((c) => c.path === '/api/gpu/instance/create')).toBe(true));
    const body = calls.find((c) => c.path === '/api/gpu/instance/create')?.body as Record<string, unknown>;
    expect(body.voucherId).toBe(77);
    // The price check asks the server with the voucher too.
    const quote = calls.findLast((c) => c.path === '/api/v2/package-billing/calculate-price');
    expect(quote?.body).toMatchObject({ voucherId: 77 });
  });

  it.each([500, 404])('says 加载代金券失败 when the voucher list fails (%i)', async (status) => {
    routes['/api/user/vouchers/available'] = () => [status, fail(status, 'boom')];
    renderForm();
    expect((await screen.findByTestId('voucher-load-failed')).textContent).toContain('加载代金券失败');
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows the server message when create fails and stays', async () => {
    routes['/api/gpu/instance/create'] = () => [
      422,
      fail(422, '余额不足：按量计费需至少可支付1小时费用（3.98元），请先充值'),
    ];
    const router = renderForm('hourly');
    await chooseImage();
    await waitFor(() => expect(createButton().disabled).toBe(false));
    await act(async () => {
      fireEvent.click(createButton());
    });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'error',
        '余额不足：按量计费需至少可支付1小时费用（3.98元），请先充值',
      ),
    );
    const body = calls.find((c) => c.path === '/api/gpu/instance/create')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ billingType: 'hourly', duration: 1, gpuAmount: 1 });
    // Pay-as-you-go creates at once: no package confirm.
    expect(confirmDialog).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/subscribe');
  });
});

describe('create failure messages (SPEC.md §8)', () => {
  it('prefers the server message, else 容器创建失败', async () => {
    const { ApiError } = await import('../../../lib/api-client');
    expect(createFailureMessage(new ApiError('instances.gpus_taken', '该主机空闲GPU不足', 409))).toBe(
      '该主机空闲GPU不足',
    );
    expect(createFailureMessage(new ApiError('NETWORK', '网络错误', 0))).toBe('容器创建失败');
    expect(createFailureMessage(new Error('boom'))).toBe('容器创建失败');
    expect(createFailureMessage(new ApiError('TIMEOUT', '请求超时', 0))).toContain('控制台');
  });
});
