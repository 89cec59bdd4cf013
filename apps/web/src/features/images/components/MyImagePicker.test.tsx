import type { User } from '@gpu/shared/auth';
import type { UserImage, UserImageList } from '@gpu/shared/user-images';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import MyImagePicker from './MyImagePicker';

// The subscribe screen's 我的镜像 tab offers only what the machine's host can run: an image kept
// on another host (no registry) and one still saving are shown, disabled, saying why.

vi.setConfig({ testTimeout: 30_000 });
const USER = { id: 7, tenantId: 1, username: 'u', phone: '13800000000' } as unknown as User;
const image = (over: Partial<UserImage>): UserImage => ({
  id: 1,
  name: 'env',
  description: '',
  status: 'AVAILABLE',
  progress: 100,
  sizeBytes: 2 * 1024 ** 3,
  image: 'gpu-platform/user-image:u7-i1',
  hostId: 3,
  hostName: 'host-a',
  sourceInstanceId: 9,
  sourceInstanceName: 'src',
  error: null,
  createdAt: '2026-11-26T08:00:00.000Z',
  ...over,
});
const LIST: UserImageList = {
  items: [
    image({ id: 1, name: '本机镜像' }),
    image({ id: 2, name: '别处镜像', hostId: 4, hostName: 'host-b' }),
    image({ id: 3, name: '仓库镜像', hostId: null, hostName: 'host-b' }),
    image({ id: 4, name: '保存中镜像', status: 'SAVING', progress: 50, image: null, sizeBytes: null }),
  ],
  quota: { maxCount: 5, maxTotalGb: 100 },
  usedCount: 4,
  usedBytes: 6 * 1024 ** 3,
};

afterEach(restoreApi);

describe('MyImagePicker', () => {
  it('enables this host’s and the registry’s images; says why the others cannot be picked', async () => {
    stubApi((url) => (url.pathname === '/api/user/images' ? ok(LIST) : undefined), { user: USER });
    const picked = vi.fn();
    renderApp(
      [{ path: '/', element: <MyImagePicker hostName="host-a" value={null} onChange={picked} /> }],
      '/',
    );
    await screen.findByText('本机镜像');
    // antd puts the test id on the radio's input or on its label, depending on the version.
    const radio = (id: number) => {
      const el = screen.getByTestId(`my-image-${id}`);
      return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
    };
    expect([1, 2, 3, 4].map((id) => radio(id).disabled)).toEqual([false, true, false, true]);
    expect(screen.getByText('仅可在主机 host-b 上使用')).toBeTruthy();
    expect(screen.getByText('尚不可用')).toBeTruthy();
    fireEvent.click(radio(3));
    await waitFor(() => expect(picked).toHaveBeenCalledWith(expect.objectContaining({ id: 3 })));
    fireEvent.click(radio(2));
    expect(picked).toHaveBeenCalledTimes(1);
  });
});
