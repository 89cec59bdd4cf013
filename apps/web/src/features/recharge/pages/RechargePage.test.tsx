import { APP_EVENTS } from '@gpu/shared/constants';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { configureApiClient } from '../../../lib/api-client';
import { onAppEvent } from '../../../lib/app-events';
import RechargePage from './RechargePage';

// The page's wiring of every outcome of SPEC.md §4 and the messages of §8, against a fake
// fetch and a fake clock that also moves with real time (antd's dialogs load and animate).

vi.setConfig({ testTimeout: 30_000 });

type Answer = { status?: number; body: unknown } | 'network';
const ok = (data: unknown) => ({ body: { success: true, code: '200', message: '成功', msg: '成功', data } });
const fail = (status: number, message: string) => ({
  status,
  body: { success: false, code: String(status), message, msg: message, data: null },
});

let balance = 0;
let createAnswer: () => Answer;
let statusAnswer: () => Answer;
let statusCalls = 0;
/** The Idempotency-Key of each createQrCode request, in order. */
let createKeys: (string | undefined)[] = [];

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  configureApiClient({ navigate: () => {} });
  balance = 0;
  statusCalls = 0;
  createKeys = [];
  createAnswer = () => ok({ qrCode: 'http://localhost/api/pay/simulated/RC1', orderNo: 'RC1' });
  statusAnswer = () => ok('PENDING');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/pay/createQrCode')
        createKeys.push((init?.headers as Record<string, string> | undefined)?.['Idempotency-Key']);
      let answer: Answer;
      if (url.pathname === '/api/user/balance')
        answer = ok({ available: balance, frozen: 0, total: balance });
      else if (url.pathname === '/api/pay/createQrCode') answer = createAnswer();
      else if (url.pathname === '/api/pay/status') {
        statusCalls += 1;
        answer = statusAnswer();
      } else answer = fail(404, '接口不存在');
      if (answer === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
});
afterEach(async () => {
  // Close dialogs left open so the next test starts clean.
  const { default: Modal } = await import('antd/es/modal');
  Modal.destroyAll();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/recharge', element: <RechargePage /> },
      { path: '/console', element: <div data-testid="console">console</div> },
      { path: '/elsewhere', element: <div data-testid="elsewhere">elsewhere</div> },
    ],
    { initialEntries: ['/recharge'] },
  );
  render(
    <AppProviders tenant={DEFAULT_TENANT_CONFIG}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const findText = (text: string) => screen.findByText(text, {}, { timeout: 8_000 });
/** An antd confirm dialog by its title (antd also renders a hidden copy of the title). */
const findDialog = (title: string) =>
  waitFor(
    () => {
      const titles = [...document.querySelectorAll('.ant-modal-confirm-title')];
      const found = titles.find((el) => el.textContent === title);
      if (!found) throw new Error(`no dialog "${title}"`);
      return found;
    },
    { timeout: 8_000 },
  );
const dialogButton = (label: string) => {
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('.ant-modal-confirm button')];
  const found = buttons.find((b) => b.textContent?.replace(/\s/g, '') === label);
  if (!found) throw new Error(`no dialog button "${label}"`);
  return found;
};
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Chooses 200 and asks for the QR. */
async function startPayment() {
  await screen.findByTestId('recharge-preset-200', {}, { timeout: 8_000 });
  fireEvent.click(screen.getByTestId('recharge-preset-200'));
  fireEvent.click(screen.getByTestId('recharge-submit'));
}

describe('recharge page', () => {
  it('disables the button without an amount and warns about an invalid one', async () => {
    renderPage();
    const submit = (await screen.findByTestId(
      'recharge-submit',
      {},
      { timeout: 8_000 },
    )) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    const input = screen.getByTestId('recharge-custom') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '5a0' } });
    expect(input.value).toBe('50');
    expect(screen.getByTestId('recharge-custom-error').textContent).toBe('充值金额不能少于100元');
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await findText('请完善充值信息');
    expect(screen.queryByTestId('recharge-qr-view')).toBeNull();
    // Keys other than digits and control keys are blocked.
    expect(fireEvent.keyDown(input, { key: '.' })).toBe(false);
    expect(fireEvent.keyDown(input, { key: '7' })).toBe(true);
    expect(fireEvent.keyDown(input, { key: 'Backspace' })).toBe(true);
  });

  it('shows the QR view; SUCCESS refreshes the balance, sends the balance event and offers /console', async () => {
    const events: unknown[] = [];
    const stop = onAppEvent(APP_EVENTS.balance, (detail) => events.push(detail));
    const router = renderPage();
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    const qr = screen.getByTestId('recharge-qr');
    expect([qr.getAttribute('width'), qr.getAttribute('height')]).toEqual(['200', '200']);
    expect(screen.getByTestId('recharge-countdown').textContent).toContain('10:00');
    await tick(1000);
    expect(statusCalls).toBe(1);
    expect(screen.getByTestId('recharge-countdown').textContent).toContain('09:59');

    balance = 200;
    statusAnswer = () => ok('SUCCESS');
    await tick(1000);
    await findDialog('恭喜您，充值成功！');
    expect(screen.getByTestId('recharge-balance').textContent).toBe('¥200.00');
    expect(events).toEqual([{ orderNo: 'RC1', amount: 200 }]);
    await tick(5000);
    expect(statusCalls).toBe(2); // stopped
    fireEvent.click(dialogButton('继续'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/console'));
    stop();
  });

  it('FAIL: the failure dialog, and continue returns to the amount form', async () => {
    renderPage();
    statusAnswer = () => ok('FAIL');
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(1000);
    await findDialog('很抱歉，支付失败');
    fireEvent.click(dialogButton('继续'));
    await screen.findByTestId('recharge-submit');
    expect(screen.queryByTestId('recharge-qr-view')).toBeNull();
  });

  it('after 300 pending polls: the timeout dialog, and the form is back', async () => {
    renderPage();
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(299_000);
    expect(statusCalls).toBe(299);
    expect(screen.queryByTestId('recharge-qr-view')).not.toBeNull();
    await tick(1000);
    expect(statusCalls).toBe(300);
    await findText('支付超时，请检查支付状态或重新发起支付');
    expect(screen.queryByTestId('recharge-qr-view')).toBeNull();
    await tick(5000);
    expect(statusCalls).toBe(300);
  });

  it('a network error stops polling with its message; I have paid checks again', async () => {
    renderPage();
    statusAnswer = () => 'network';
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(1000);
    await findText('网络错误，无法查询支付状态');
    await tick(3000);
    expect(statusCalls).toBe(1);
    statusAnswer = () => ok('PENDING');
    fireEvent.click(screen.getByTestId('recharge-paid'));
    await tick(0);
    expect(statusCalls).toBe(2);
    await tick(1000);
    expect(statusCalls).toBe(3); // polling resumed
  });

  it('another response code stops polling with "payment status query failed"', async () => {
    renderPage();
    statusAnswer = () => fail(500, '服务器内部错误');
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(1000);
    await findText('支付状态查询失败，请手动刷新');
    await tick(3000);
    expect(statusCalls).toBe(1);
  });

  it('the countdown reaching zero shows its alert and marks the QR expired', async () => {
    renderPage();
    statusAnswer = () => fail(500, '服务器内部错误'); // polling stops; the countdown goes on
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(600_000);
    await findDialog('支付倒计时已结束，请重新发起支付');
    expect(screen.getByTestId('recharge-countdown').textContent).toContain('00:00');
    expect(screen.getByText('二维码已过期')).toBeTruthy();
  });

  it('Back returns to the form and leaving the page stops everything', async () => {
    const router = renderPage();
    await startPayment();
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(2000);
    expect(statusCalls).toBe(2);
    fireEvent.click(screen.getByTestId('recharge-back'));
    await screen.findByTestId('recharge-submit');
    await tick(3000);
    expect(statusCalls).toBe(2);

    fireEvent.click(screen.getByTestId('recharge-submit'));
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    await tick(1000);
    expect(statusCalls).toBe(3);
    await act(() => router.navigate('/elsewhere'));
    await tick(10_000);
    expect(statusCalls).toBe(3);
  });

  it('shows the §8 messages when the QR cannot be had', async () => {
    renderPage();
    createAnswer = () => fail(429, '充值下单过于频繁，请稍后再试');
    await startPayment();
    await findText('充值下单过于频繁，请稍后再试');
    createAnswer = () => ok({ qrCode: '', orderNo: 'RC2' });
    fireEvent.click(screen.getByTestId('recharge-submit'));
    await findText('支付二维码生成失败，请重试');
    createAnswer = () => 'network';
    fireEvent.click(screen.getByTestId('recharge-submit'));
    await findText('支付请求失败，请检查登录状态');
    expect(screen.queryByTestId('recharge-qr-view')).toBeNull();
  });

  it('sends one Idempotency-Key per recharge action: retries and a click after no answer reuse it', async () => {
    renderPage();
    // Messages of earlier tests may still show: wait on the requests and the button instead.
    const submitted = async (n: number) => {
      await waitFor(() => expect(createKeys).toHaveLength(n), { timeout: 8_000 });
      await waitFor(
        () => expect(screen.getByTestId('recharge-submit').className).not.toContain('ant-btn-loading'),
        { timeout: 8_000 },
      );
    };
    createAnswer = () => fail(429, '充值下单过于频繁，请稍后再试');
    await startPayment();
    await submitted(1);
    // No answer: the client retries twice on its own, then the user clicks again — all one action.
    createAnswer = () => 'network';
    fireEvent.click(screen.getByTestId('recharge-submit'));
    await submitted(4);
    createAnswer = () => ok({ qrCode: 'http://localhost/api/pay/simulated/RC1', orderNo: 'RC1' });
    fireEvent.click(screen.getByTestId('recharge-submit'));
    await screen.findByTestId('recharge-qr-view', {}, { timeout: 8_000 });
    expect(createKeys).toHaveLength(5);
    const [answered, ...unanswered] = createKeys;
    expect(answered).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(unanswered).size).toBe(1);
    expect(unanswered[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(unanswered[0]).not.toBe(answered);
  });
});
