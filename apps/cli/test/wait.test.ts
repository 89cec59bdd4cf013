import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApi } from '../src/api.ts';
import type { Ctx } from '../src/context.ts';
import { EXIT } from '../src/exit.ts';
import { waitForStatus } from '../src/instances.ts';

/**
 * waitForStatus against a stand-in API whose instance goes through `statuses`, one per answer:
 * with the long-polling route of issue 32, or (an older server) only the list.
 */
async function fakeApi(statuses: string[], opts: { singleRoute: boolean }) {
  const urls: string[] = [];
  let served = 0;
  const next = () => ({
    id: 5,
    status: statuses[Math.min(served++, statuses.length - 1)],
    stopReason: '镜像拉取失败',
    warning: null,
  });
  const server = createServer((req, res) => {
    urls.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    const answer = (status: number, body: unknown) => {
      res.statusCode = status;
      res.end(JSON.stringify(body));
    };
    if (req.url?.startsWith('/api/gpu/instance/5')) {
      if (!opts.singleRoute)
        return answer(404, {
          success: false,
          code: '404',
          message: '接口不存在',
          data: null,
          errorCode: 'common.not_found',
        });
      return answer(200, { success: true, code: '200', message: '成功', data: next() });
    }
    answer(200, {
      success: true,
      code: '200',
      message: '成功',
      data: { list: [next()], total: 1, page: 1, size: 100 },
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const api = createApi(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'tok', 'zh');
  const ctx = { lang: 'zh', json: false, apiBase: () => '', api: () => api } as Ctx;
  return { api, ctx, urls, close: () => server.close() };
}

describe('waiting for a status', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('long-polls GET /api/gpu/instance/:id with waitFor and at most 60 s a request', async () => {
    const f = await fakeApi(['CREATING', 'RUNNING'], { singleRoute: true });
    close = f.close;
    const inst = await waitForStatus(f.ctx, f.api, 5, 'RUNNING', 600);
    expect(inst.status).toBe('RUNNING');
    expect(f.urls).toEqual([
      '/api/gpu/instance/5?waitFor=RUNNING&timeout=60',
      '/api/gpu/instance/5?waitFor=RUNNING&timeout=60',
    ]);
  });

  it('a server without that route is read through the list (the route is asked once)', async () => {
    const f = await fakeApi(['CREATING', 'RUNNING'], { singleRoute: false });
    close = f.close;
    const inst = await waitForStatus(f.ctx, f.api, 5, 'RUNNING', 30);
    expect(inst.status).toBe('RUNNING');
    expect(f.urls.filter((u) => u.startsWith('/api/gpu/instance/5'))).toHaveLength(1);
    expect(f.urls.filter((u) => u.startsWith('/api/gpu/instances?'))).toHaveLength(2);
  });

  it('FAILED ends the wait with exit 6 and the reason', async () => {
    const f = await fakeApi(['FAILED'], { singleRoute: true });
    close = f.close;
    const err = await waitForStatus(f.ctx, f.api, 5, 'RUNNING', 30).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: EXIT.server, message: '实例创建失败: 镜像拉取失败' });
  });
});
