import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app/server.ts';
import { createTestApp, testConfig } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { hosts, regions } from './hosts.tables.ts';

const REMOTE_BODY = 'REMOTE-SECRET-BODY-7f3a';

/** A local HTTP server that counts connections and answers every request with REMOTE_BODY. */
async function startTarget(listenOn: { port: number; host: string } | string) {
  let connections = 0;
  const server: Server = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: REMOTE_BODY }));
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(listenOn as never, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const dockerHost = (regionId: number, name: string, settings: Record<string, unknown>) => ({
  name,
  regionId,
  driver: 'docker',
  portRangeStart: 47_000,
  portRangeEnd: 47_009,
  settings: { ...settings, gpus: { model: 'L40S', memoryGb: 48, count: 1 } },
});

async function world(hostNetworks: string) {
  const t = await createTestApp({ demo: false, config: { HOST_NETWORKS: hostNetworks } });
  const admin = await t.adminHeaders();
  const [region] = await t.db.insert(regions).values({ name: '测试区', code: 'test-a' }).returning();
  const call = (method: 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  /** A docker host row written straight to the database: as if saved under other settings. */
  const insertHost = async (name: string, settings: Record<string, unknown>) => {
    const [row] = await t.db
      .insert(hosts)
      .values({ regionId: region?.id as number, name, driver: 'docker', settings })
      .returning();
    return row?.id as number;
  };
  const lastAudit = async () =>
    (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'hosts.test_connection'))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];
  return { t, call, insertHost, lastAudit, regionId: region?.id as number };
}

describe('host networks: saving settings', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world('0.0.0.0/0,unix:/run/allowed-docker.sock');
  });
  afterAll(() => w.t.close());

  it.each([
    ['loopback inside a wide entry', { connection: 'ssh', host: '127.0.0.1', ssh: { username: 'u' } }],
    ['link-local (cloud metadata)', { connection: 'ssh', host: '169.254.169.254', ssh: { username: 'u' } }],
    ['"this host"', { connection: 'ssh', host: '0.0.0.0', ssh: { username: 'u' } }],
    ['a name that resolves to loopback', { connection: 'ssh', host: 'localhost', ssh: { username: 'u' } }],
    ['IPv4-mapped loopback', { connection: 'ssh', host: '::ffff:127.0.0.1', ssh: { username: 'u' } }],
  ])('refuses %s (400 naming settings.host)', async (_what, settings) => {
    const res = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, `n-${Math.random().toString(36).slice(2, 8)}`, settings),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: '400' });
    expect(res.json().message).toContain('settings.host');
    expect(res.json().message).toContain('HOST_NETWORKS');
  });

  it('HOST_NETWORKS unset: no docker host anywhere, simulated hosts as before', async () => {
    const plain = await buildServer({
      config: testConfig({ RATE_LIMITS: 'off' }),
      database: w.t.database,
      webDist: '/nonexistent',
    });
    try {
      const headers = await w.t.adminHeaders();
      for (const settings of [
        { connection: 'ssh', host: '10.1.1.1', ssh: { username: 'u' } },
        { connection: 'socket' },
      ]) {
        const res = await plain.inject({
          method: 'POST',
          url: '/api/admin/hosts',
          headers,
          payload: dockerHost(w.regionId, `unset-${settings.connection}`, settings),
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toContain('HOST_NETWORKS');
      }
      const simulated = await plain.inject({
        method: 'POST',
        url: '/api/admin/hosts',
        headers,
        payload: { name: 'unset-simulated', regionId: w.regionId, driver: 'simulated' },
      });
      expect(simulated.statusCode, simulated.body).toBe(200);
      const probe = await plain.inject({
        method: 'POST',
        url: `/api/admin/hosts/${simulated.json().data.id}/test-connection`,
        headers,
      });
      expect(probe.json().data).toMatchObject({ reachable: true });
    } finally {
      await plain.close();
    }
  });

  it('refuses a unix socket that is not listed, accepts the listed one', async () => {
    const other = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, 'sock-other', { connection: 'socket', socketPath: '/var/run/docker.sock' }),
    );
    expect(other.statusCode, other.body).toBe(400);
    expect(other.json().message).toContain('settings.socketPath');
    const none = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, 'sock-default', { connection: 'socket' }),
    );
    expect(none.statusCode, none.body).toBe(400);
    const listed = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, 'sock-listed', { connection: 'socket', socketPath: '/run/allowed-docker.sock' }),
    );
    expect(listed.statusCode, listed.body).toBe(200);
  });

  it('accepts an address of a listed network, and refuses an edit that moves it out', async () => {
    const ok = await w.call(
      'POST',
      '/api/admin/hosts',
      dockerHost(w.regionId, 'tcp-ok', { connection: 'ssh', host: '10.9.8.7', ssh: { username: 'u' } }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const moved = await w.call('PUT', `/api/admin/hosts/${ok.json().data.id}`, {
      settings: { connection: 'ssh', host: '127.0.0.2', ssh: { username: 'u' } },
    });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json().message).toContain('settings.host');
  });
});

describe('host networks: connecting', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let dir: string;
  let sock: Awaited<ReturnType<typeof startTarget>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'host-net-'));
    sock = await startTarget(path.join(dir, 'engine.sock'));
    target = await startTarget({ port: 0, host: '127.0.0.1' });
    // 127.0.0.2 is listed: loopback test targets on other addresses stay refused.
    w = await world('127.0.0.2');
  });
  afterAll(async () => {
    await w.t.close();
    await target.close();
    await sock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const test = (id: number) => w.call('POST', `/api/admin/hosts/${id}/test-connection`);

  it('refuses at connect an address that is not allowed, without touching it', async () => {
    const id = await w.insertHost('tcp-loopback', {
      connection: 'tcp',
      host: '127.0.0.1',
      port: target.port,
      allowInsecureTcp: true,
    });
    const res = await test(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '连接失败', data: { reachable: false } });
    expect(res.json().data.error).toContain('HOST_NETWORKS');
    expect(target.connections()).toBe(0);
  });

  it('checks the address a name resolves to when connecting', async () => {
    const id = await w.insertHost('tcp-name', {
      connection: 'tcp',
      host: 'localhost',
      port: target.port,
      allowInsecureTcp: true,
    });
    const res = await test(id);
    expect(res.json().data).toMatchObject({ reachable: false });
    expect(res.json().data.error).toContain('HOST_NETWORKS');
    expect(target.connections()).toBe(0);
  });

  it('SSH: checks the address a name resolves to before ssh2 connects', async () => {
    const id = await w.insertHost('ssh-name', {
      connection: 'ssh',
      host: 'localhost',
      port: target.port,
      ssh: { username: 'gpu', password: 'pw' },
    });
    const res = await test(id);
    expect(res.json().data).toMatchObject({ reachable: false });
    expect(res.json().data.error).toContain('HOST_NETWORKS');
    expect(target.connections()).toBe(0);
  });

  it('refuses at connect a unix socket that is not listed', async () => {
    const id = await w.insertHost('sock-unlisted', {
      connection: 'socket',
      socketPath: path.join(dir, 'engine.sock'),
    });
    const res = await test(id);
    expect(res.json().data).toMatchObject({ reachable: false });
    expect(res.json().data.error).toContain('HOST_NETWORKS');
    expect(sock.connections()).toBe(0);
  });
});

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
