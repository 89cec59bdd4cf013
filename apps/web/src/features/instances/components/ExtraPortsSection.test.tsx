import type { Instance } from '@gpu/shared/instances';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseExtraPorts } from '../../../components/ExtraPortsField';
import { ExtraPortsSection } from './ExtraPortsSection';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/feedback', () => ({ notify }));

const inst = (over: Partial<Instance>) =>
  ({
    id: 7,
    uuid: '7',
    status: 'RUNNING',
    extraPorts: [{ containerPort: 6006, hostPort: 30005, url: 'http://10.0.0.5:30005' }],
    ...over,
  }) as Instance;

const show = (i: Instance) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ExtraPortsSection inst={i} />
    </QueryClientProvider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('parseExtraPorts', () => {
  it("answers the shared schema's message for each broken rule", () => {
    expect(parseExtraPorts(['6006', '7860'])).toEqual({ ports: [6006, 7860], error: null });
    expect(parseExtraPorts(['22']).error).toContain('22');
    expect(parseExtraPorts(['6006', '6006']).error).toBe('额外端口不能重复');
    expect(parseExtraPorts(['abc']).error).toBe('额外端口必须是 1–65535 的整数');
    expect(parseExtraPorts(['70000']).error).toBe('额外端口必须是 1–65535 的整数');
    expect(parseExtraPorts(['1', '2', '3', '4']).error).toBe('额外端口最多 3 个');
  });
});

describe('ExtraPortsSection', () => {
  it('shows each port as its link with the service name while running, and no editor', () => {
    show(inst({}));
    const link = screen.getByTestId('extra-port-link');
    expect(link.getAttribute('href')).toBe('http://10.0.0.5:30005');
    expect(screen.getByTestId('extra-port-6006').textContent).toContain('容器端口 6006 · TensorBoard');
    expect(screen.queryByTestId('extra-ports-edit')).toBeNull();
  });

  it('edits the list of a powered-off instance, sends it with PUT and shows what was saved', async () => {
    const saved = inst({
      status: 'STOPPED',
      extraPorts: [
        { containerPort: 6006, hostPort: 30005, url: null },
        { containerPort: 7860, hostPort: 30006, url: null },
      ],
    });
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ success: true, code: '200', message: '端口已保存', data: saved })),
    );
    vi.stubGlobal('fetch', fetch);
    show(inst({ status: 'STOPPED', extraPorts: [{ containerPort: 6006, hostPort: 30005, url: null }] }));
    expect(screen.getByTestId('extra-port-6006').textContent).toContain('30005');
    fireEvent.click(screen.getByTestId('extra-ports-edit'));
    fireEvent.click(screen.getByTestId('extra-ports-save'));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain('/gpu/instance/7/ports');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ ports: [6006] });
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', '端口已保存'));
    // The drawer's row is a snapshot: the answer's list replaces it.
    await screen.findByTestId('extra-port-7860');
    expect(screen.queryByTestId('extra-ports-save')).toBeNull();
  });
});
