import { APP_EVENTS } from '@gpu/shared/constants';
import type { VoucherStats } from '@gpu/shared/vouchers';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { onAppEvent } from '../../lib/app-events';
import { ok, restoreApi, stubApi } from '../../test/api-stub';
import { VoucherMenuLabel } from './VoucherMenuLabel';

// The console sidebar's 我的代金券 entry (issue 11): a badge of usable vouchers from
// /api/user/vouchers/stats, polled every 60 s; when the count grows the voucher event goes out.

vi.setConfig({ testTimeout: 30_000 });

const POLL_MS = 60_000;
const stats = (unused: number): VoucherStats => ({
  totalValue: unused * 50,
  unused,
  used: 0,
  expired: 0,
  expiring: 0,
});

let answer: VoucherStats;
let statsCalls = 0;
let events = 0;
let stopListening: () => void;

beforeAll(async () => {
  await import('antd');
}, 60_000);

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  answer = stats(0);
  statsCalls = 0;
  events = 0;
  stopListening = onAppEvent(APP_EVENTS.voucher, () => {
    events += 1;
  });
  stubApi((url) => {
    if (url.pathname !== '/api/user/vouchers/stats') return undefined;
    statsCalls += 1;
    return ok(answer);
  });
});
afterEach(() => {
  stopListening();
  vi.useRealTimers();
  restoreApi();
});

function renderLabel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  render(
    <QueryClientProvider client={client}>
      <VoucherMenuLabel label="我的代金券" />
    </QueryClientProvider>,
  );
}

const badgeCount = () => screen.queryByTestId('voucher-badge')?.querySelector('sup')?.getAttribute('title');
/** The next 60 s poll, and its answer on screen. */
async function nextPoll() {
  const before = statsCalls;
  await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
  await waitFor(() => expect(statsCalls).toBe(before + 1));
}

describe('<VoucherMenuLabel>', () => {
  it('shows the usable count as a badge next to the label, and no badge at zero', async () => {
    answer = stats(3);
    renderLabel();
    expect(screen.getByText('我的代金券')).toBeTruthy();
    await waitFor(() => expect(badgeCount()).toBe('3'));

    answer = stats(0);
    await nextPoll();
    await waitFor(() => expect(screen.queryByTestId('voucher-badge')).toBeNull());
    expect(screen.getByText('我的代金券')).toBeTruthy();
  });

  it('sends the voucher event when the count grows, not on the first answer nor when it drops', async () => {
    answer = stats(1);
    renderLabel();
    await waitFor(() => expect(badgeCount()).toBe('1'));
    expect(events).toBe(0);

    // Unchanged: nothing to tell.
    await nextPoll();
    expect(events).toBe(0);

    // An administrator distributed two vouchers to this user.
    answer = stats(3);
    await nextPoll();
    await waitFor(() => expect(badgeCount()).toBe('3'));
    expect(events).toBe(1);

    // One was used: fewer, no event.
    answer = stats(2);
    await nextPoll();
    await waitFor(() => expect(badgeCount()).toBe('2'));
    expect(events).toBe(1);

    // Grows again from the lower count.
    answer = stats(4);
    await nextPoll();
    await waitFor(() => expect(badgeCount()).toBe('4'));
    expect(events).toBe(2);
  });
});
