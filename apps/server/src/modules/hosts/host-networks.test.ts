import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, testConfig } from '../../test/test-app.ts';
import { dockerHost, startTarget, world } from './host-networks.test-helpers.ts';

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
