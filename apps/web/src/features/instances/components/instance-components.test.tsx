import type { Instance } from '@gpu/shared/instances';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AccessInfo } from './AccessInfo';
import { InstanceActions } from './InstanceActions';
import { StatusTag } from './StatusTag';

const base: Instance = {
  id: 7,
  uuid: '7',
  name: 'e2e-box',
  status: 'RUNNING',
  billingType: 'daily',
  gpuName: 'L40S',
  gpuCount: 1,
  regionName: '安徽A区',
  hostName: 'nm-a-l40s-01',
  image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
  hourlyPrice: 3.2,
  packagePrice: 65.28,
  duration: 1,
  charged: 65.28,
  createdAt: '2025-06-01T04:00:00.000Z',
  runningSince: '2025-06-01T04:00:01.000Z',
  expiresAt: '2025-06-02T04:00:00.000Z',
  stoppedAt: null,
  releasedAt: null,
  releaseAt: null,
  stopReason: null,
  warning: null,
  containerId: 'c-1',
  sshCommand: 'ssh -p 30001 root@10.0.0.5',
  sshPassword: 's3cret-Pass',
  sshPasswordAuth: true,
  jupyterUrl: 'http://10.0.0.5:30002/lab',
  jupyterToken: '3f9a1c0b7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e',
  dataMountPath: '/root/data',
  resettable: true,
  cloneable: true,
  imageSaveable: true,
  machineId: 1,
  extraPorts: [],
  noGpu: false,
  noGpuPrice: null,
};
const NOW = new Date('2025-06-01T06:00:00.000Z');

describe('AccessInfo', () => {
  it('hides the password until the eye is clicked, and shows the SSH command and JupyterLab link', () => {
    render(<AccessInfo inst={base} />);
    expect(screen.getByTestId('ssh-command').textContent).toContain('ssh -p 30001 root@10.0.0.5');
    expect(screen.getByTestId('ssh-password').textContent).not.toContain('s3cret-Pass');
    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(screen.getByTestId('ssh-password').textContent).toContain('s3cret-Pass');
    fireEvent.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(screen.getByTestId('ssh-password').textContent).not.toContain('s3cret-Pass');
    const link = screen.getByTestId('jupyter-link');
    // With its token, so JupyterLab opens without its token prompt (issue "What customers see");
    // noreferrer keeps the address (and so the token) out of Referer headers.
    expect(link.getAttribute('href')).toBe(`${base.jupyterUrl}?token=${base.jupyterToken}`);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.getAttribute('rel')).toContain('noreferrer');
  });
  it("shows JupyterLab's own token, hidden until its eye is clicked, apart from the password", () => {
    render(<AccessInfo inst={base} />);
    const token = screen.getByTestId('jupyter-token');
    expect(token.textContent).not.toContain(base.jupyterToken as string);
    fireEvent.click(screen.getByRole('button', { name: '显示 JupyterLab 令牌' }));
    expect(token.textContent).toContain(base.jupyterToken as string);
    // Revealing the token leaves the password hidden.
    expect(screen.getByTestId('ssh-password').textContent).not.toContain('s3cret-Pass');
    expect(screen.getByRole('button', { name: '复制 JupyterLab 令牌' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '隐藏 JupyterLab 令牌' }));
    expect(token.textContent).not.toContain(base.jupyterToken as string);
  });
  it('says when access becomes available', () => {
    render(
      <AccessInfo
        inst={{
          ...base,
          status: 'CREATING',
          sshCommand: null,
          sshPassword: null,
          jupyterUrl: null,
          jupyterToken: null,
        }}
      />,
    );
    expect(screen.getByText('开机后可用')).toBeTruthy();
  });
});

describe('StatusTag', () => {
  it('spins and says the container is being made while CREATING', () => {
    render(<StatusTag status="CREATING" />);
    expect(screen.getByTestId('instance-status').textContent).toContain('创建中');
    expect(screen.getByTestId('status-spinner')).toBeTruthy();
    expect(screen.getByTestId('instance-progress').textContent).toBe('正在创建容器，通常几十秒内完成');
  });
  it('is still once the instance runs', () => {
    render(<StatusTag status="RUNNING" />);
    expect(screen.queryByTestId('status-spinner')).toBeNull();
    expect(screen.queryByTestId('instance-progress')).toBeNull();
  });
});

describe('InstanceActions', () => {
  const button = (name: string) =>
    screen.getByRole('button', { name: new RegExp(name) }) as HTMLButtonElement;
  it('offers power off, renew and release for a running package', () => {
    const onAction = vi.fn();
    render(<InstanceActions inst={base} now={NOW} busy={false} onAction={onAction} />);
    expect(button('关机').disabled).toBe(false);
    expect(button('续费').disabled).toBe(false);
    expect(button('释放').disabled).toBe(false);
    fireEvent.click(button('关机'));
    expect(onAction).toHaveBeenCalledWith('powerOff', base);
  });
  it('offers power on for a stopped instance and hides renewal for pay-as-you-go', () => {
    render(
      <InstanceActions
        inst={{ ...base, status: 'STOPPED', billingType: 'hourly' }}
        now={NOW}
        busy={false}
        onAction={vi.fn()}
      />,
    );
    expect(button('开机').disabled).toBe(false);
    expect(screen.queryByRole('button', { name: /续费/ })).toBeNull();
  });
  it('disables everything while a call is in flight', () => {
    render(<InstanceActions inst={base} now={NOW} busy onAction={vi.fn()} />);
    for (const name of ['关机', '续费', '释放']) expect(button(name).disabled).toBe(true);
  });
  it('更多 offers reset system and change image on a powered-off instance only', async () => {
    const onAction = vi.fn();
    const stopped = { ...base, status: 'STOPPED' as const };
    const { rerender } = render(<InstanceActions inst={base} now={NOW} busy={false} onAction={onAction} />);
    fireEvent.click(button('更多'));
    const item = async (text: RegExp) => (await screen.findByText(text)).closest('li') as HTMLElement;
    expect((await item(/重置系统（需先关机）/)).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(await item(/重置系统（需先关机）/));
    expect(onAction).not.toHaveBeenCalled();
    rerender(<InstanceActions inst={stopped} now={NOW} busy={false} onAction={onAction} />);
    fireEvent.click(await item(/^更换镜像$/));
    expect(onAction).toHaveBeenCalledWith('changeImage', stopped);
  });
  it('更多 offers 克隆实例 on a powered-off instance only, and alone where the host cannot recreate', async () => {
    const onAction = vi.fn();
    const cloneOnly = { ...base, resettable: false, imageSaveable: false };
    const { rerender } = render(
      <InstanceActions inst={cloneOnly} now={NOW} busy={false} onAction={onAction} />,
    );
    fireEvent.click(button('更多'));
    const item = async (text: RegExp) => (await screen.findByText(text)).closest('li') as HTMLElement;
    expect((await item(/克隆实例（需先关机）/)).getAttribute('aria-disabled')).toBe('true');
    expect(screen.queryByText(/重置系统/)).toBeNull();
    expect(screen.queryByText(/保存镜像/)).toBeNull();
    const stopped = { ...cloneOnly, status: 'STOPPED' as const };
    rerender(<InstanceActions inst={stopped} now={NOW} busy={false} onAction={onAction} />);
    fireEvent.click(await item(/^克隆实例$/));
    expect(onAction).toHaveBeenCalledWith('clone', stopped);
  });
  it('has no 更多 where the host can neither recreate, clone nor save images (overseas)', () => {
    render(
      <InstanceActions
        inst={{ ...base, resettable: false, cloneable: false, imageSaveable: false }}
        now={NOW}
        busy={false}
        onAction={vi.fn()}
      />,
    );
    expect(screen.queryByRole('button', { name: /更多/ })).toBeNull();
  });
});
