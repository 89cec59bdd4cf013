import { describe, expect, it } from 'vitest';
import { type HostNetworks, NO_HOST_NETWORKS, parseHostNetworks } from '../platform/host-networks.ts';
import { loadConfig } from './config.ts';

const nets = (text: string) => parseHostNetworks(text) as HostNetworks;

describe('HOST_NETWORKS', () => {
  it('allows the addresses of listed networks only; unset allows nothing', () => {
    const n = nets('10.20.0.0/16, 192.0.2.7, 2001:db8::/32');
    expect(n.allowsAddress('10.20.3.4')).toBe(true);
    expect(n.allowsAddress('10.21.0.1')).toBe(false);
    expect(n.allowsAddress('192.0.2.7')).toBe(true);
    expect(n.allowsAddress('192.0.2.8')).toBe(false);
    expect(n.allowsAddress('2001:db8:1::5')).toBe(true);
    expect(n.allowsAddress('2001:db9::5')).toBe(false);
    expect(n.allowsAddress('::ffff:10.20.3.4')).toBe(true);
    expect(n.allowsAddress('not-an-ip')).toBe(false);
    expect(NO_HOST_NETWORKS.allowsAddress('10.20.3.4')).toBe(false);
    expect(NO_HOST_NETWORKS.allowsSocket('/var/run/docker.sock')).toBe(false);
  });

  it('refuses loopback, "this host" and link-local inside a wide entry, unless an entry inside them lists them', () => {
    const wide = nets('0.0.0.0/0,::/0');
    for (const a of [
      '127.0.0.1',
      '127.8.8.8',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      '::',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(wide.allowsAddress(a), a).toBe(false);
    expect(wide.allowsAddress('8.8.8.8')).toBe(true);
    expect(wide.allowsAddress('2606:4700::1111')).toBe(true);
    const local = nets('127.0.0.1,169.254.0.0/16,::1');
    expect(local.allowsAddress('127.0.0.1')).toBe(true);
    expect(local.allowsAddress('127.0.0.2')).toBe(false);
    expect(local.allowsAddress('169.254.169.254')).toBe(true);
    expect(local.allowsAddress('::1')).toBe(true);
  });

  it('allows only the unix sockets listed', () => {
    const n = nets('unix:/run/docker.sock,10.0.0.0/8');
    expect(n.allowsSocket('/run/docker.sock')).toBe(true);
    expect(n.allowsSocket('/run/../run/docker.sock')).toBe(true);
    expect(n.allowsSocket('/var/run/docker.sock')).toBe(false);
    expect(n.allowsSocket('run/docker.sock')).toBe(false);
  });

  it('stops the server naming a bad entry; APP_SECRET_PREVIOUS entries need 32 characters', () => {
    const base = { APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/gpu-config-test' };
    for (const bad of ['10.0.0.0/33', 'example.com', 'unix:relative.sock', '10.0.0.1/8/1'])
      expect(() => loadConfig({ ...base, HOST_NETWORKS: bad }), bad).toThrow(/HOST_NETWORKS/);
    expect(
      loadConfig({ ...base, HOST_NETWORKS: '10.0.0.0/8,unix:/run/d.sock' }).HOST_NETWORKS.allowsAddress(
        '10.1.1.1',
      ),
    ).toBe(true);
    expect(() => loadConfig({ ...base, APP_SECRET_PREVIOUS: 'short' })).toThrow(/APP_SECRET_PREVIOUS/);
    expect(
      loadConfig({ ...base, APP_SECRET_PREVIOUS: `${'a'.repeat(32)}, ${'b'.repeat(40)}` }).appSecretPrevious,
    ).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
    expect(loadConfig(base).appSecretPrevious).toEqual([]);
  });
});
