import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, testConfig } from '../../test/test-app.ts';
import { dockerHost, REMOTE_BODY, startTarget, world } from './host-networks.test-helpers.ts';

describe('host networks: test-connection answers a fixed reason, never the remote answer', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let target: Awaited<ReturnType<typeof startTarget>>;
  beforeAll(async () => {
    target = await startTarget({ port: 0, host: '127.0.0.1' });
    // Both loopbacks: localhost may resolve to either, and every address must be allowed.
    w = await world('127.0.0.1,::1');
  });
  afterAll(async () => {
    await w.t.close();
    await target.close();
  });

  it('does not echo what an allowed target answers', async () => {
    const created = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, 'echo-target', {
        connection: 'tcp',
        host: '127.0.0.1',
        port: target.port,
        allowInsecureTcp: true,
      }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const res = await w.call('POST', `/api/admin/hosts/${created.json().data.id}/test-connection`);
    expect(target.connections()).toBeGreaterThan(0);
    expect(res.json().data).toMatchObject({ reachable: false });
    expect(res.body).not.toContain(REMOTE_BODY);
    expect(res.json().data.error).toBe('目标不是可用的 Docker 引擎，或拒绝了请求');
    expect(JSON.stringify(await w.lastAudit())).not.toContain(REMOTE_BODY);

    // The same test through an app whose log is kept: the detail is in the server log.
    const lines: string[] = [];
    const logged = await buildServer({
      config: testConfig({ HOST_NETWORKS: '127.0.0.1,::1', RATE_LIMITS: 'off' }),
      database: w.t.database,
      webDist: '/nonexistent',
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const again = await logged.inject({
        method: 'POST',
        url: `/api/admin/hosts/${created.json().data.id}/test-connection`,
        headers: await w.t.adminHeaders(),
      });
      expect(again.body).not.toContain(REMOTE_BODY);
      const entry = lines.find((l) => l.includes('host connection test: failure detail'));
      expect(entry).toContain(REMOTE_BODY);
    } finally {
      await logged.close();
    }
  });

  it('SSH to an allowed name connects to the address it checked, and answers a fixed reason', async () => {
    const before = target.connections();
    const id = await w.insertHost('ssh-allowed', {
      connection: 'ssh',
      host: 'localhost',
      port: target.port,
      ssh: { username: 'gpu', password: 'pw' },
      timeoutMs: 3_000,
    });
    const res = await w.call('POST', `/api/admin/hosts/${id}/test-connection`);
    expect(res.json().data).toMatchObject({ reachable: false });
    expect(target.connections()).toBeGreaterThan(before);
    expect(res.body).not.toContain(REMOTE_BODY);
    expect(['SSH 连接失败', '连接超时', '连接被对方中断']).toContain(res.json().data.error);
  });

  it('names a refused connection with a fixed reason', async () => {
    const closed = await startTarget({ port: 0, host: '127.0.0.1' });
    const port = closed.port;
    await closed.close();
    const id = await w.insertHost('refused-target', {
      connection: 'tcp',
      host: '127.0.0.1',
      port,
      allowInsecureTcp: true,
    });
    const res = await w.call('POST', `/api/admin/hosts/${id}/test-connection`);
    expect(res.json().data).toMatchObject({ reachable: false, error: '连接被拒绝：目标端口没有服务在监听' });
    expect(res.json().data.error).not.toContain(String(port));
  });
});
