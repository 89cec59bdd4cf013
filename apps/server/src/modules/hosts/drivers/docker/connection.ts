import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type DockerSettings, dockerSettingsSchema } from '@gpu/shared';
import Docker from 'dockerode';
import type { HostNetworks } from '../../../../platform/host-networks.ts';
import type { SecretBox } from '../../../../platform/secret-box.ts';
import { openSecrets } from '../../hosts.models.ts';
import { DriverFailureError, HostNotAllowedError } from '../driver-errors.ts';
import type { HostRecord } from '../host-driver.ts';

export const DEFAULT_SOCKET = '/var/run/docker.sock';

/**
 * The host's docker settings with its secrets opened (they are sealed at rest); they were
 * validated when written, so a failure here is a data fault.
 */
export function dockerSettingsOf(host: HostRecord, box?: SecretBox): DockerSettings {
  let parsed: ReturnType<typeof dockerSettingsSchema.safeParse>;
  try {
    parsed = dockerSettingsSchema.safeParse(openSecrets(host.settings ?? {}, box));
  } catch (err) {
    throw new DriverFailureError(
      `host ${host.id}: a stored secret does not open (${(err as Error).message})`,
      '主机的密钥无法解密，请检查 APP_SECRET / APP_SECRET_PREVIOUS 或重新填写主机密钥',
    );
  }
  if (!parsed.success) {
    throw new DriverFailureError(
      `host ${host.id}: invalid docker settings`,
      '主机连接配置无效，请检查主机设置',
    );
  }
  return parsed.data;
}

/**
 * dockerode options for one host: unix socket, TCP with TLS (2376) or, for test labs only,
 * plain TCP (2375), or SSH (the remote runs `docker system dial-stdio`).
 * The request timeout leaves room for a graceful stop.
 */
export function dockerOptionsFor(s: DockerSettings): Docker.DockerOptions & { password?: string } {
  const timeout = Math.max(s.timeoutMs, (s.stopTimeoutS + 15) * 1000);
  switch (s.connection) {
    case 'socket':
      return { socketPath: s.socketPath ?? DEFAULT_SOCKET, timeout };
    case 'tcp':
      return s.tls
        ? {
            protocol: 'https',
            host: s.host,
            port: s.port ?? 2376,
            ca: s.tls.ca,
            cert: s.tls.cert,
            key: s.tls.key,
            timeout,
          }
        : { protocol: 'http', host: s.host, port: s.port ?? 2375, timeout };
    case 'ssh':
      return {
        protocol: 'ssh',
        host: s.host,
        port: s.port ?? 22,
        username: s.ssh?.username,
        // Top level: docker-modem overwrites sshOptions.password with this one.
        ...(s.ssh?.password ? { password: s.ssh.password } : {}),
        sshOptions: s.ssh?.privateKey ? { privateKey: s.ssh.privateKey } : {},
        timeout,
      };
  }
}

/** What HOST_NETWORKS says of a host's target: null when allowed, else the field and why. */
export type TargetProblem = { field: 'host' | 'socketPath'; reason: 'not_allowed' | 'unresolvable' };

/**
 * Checks the engine a host's settings point at against HOST_NETWORKS: the socket path, or every
 * address the host name resolves to now (a name can resolve anywhere).
 */
export async function checkDockerTarget(
  s: Pick<DockerSettings, 'connection' | 'socketPath' | 'host'>,
  networks: HostNetworks,
): Promise<TargetProblem | null> {
  if (s.connection === 'socket') {
    return networks.allowsSocket(s.socketPath ?? DEFAULT_SOCKET)
      ? null
      : { field: 'socketPath', reason: 'not_allowed' };
  }
  try {
    await allowedAddresses(s.host ?? '', networks);
    return null;
  } catch (err) {
    return { field: 'host', reason: err instanceof HostNotAllowedError ? 'not_allowed' : 'unresolvable' };
  }
}

/**
 * Every address `host` is (an IP) or resolves to now, when HOST_NETWORKS allows all of them;
 * else HostNotAllowedError (a failed lookup throws its own error).
 */
async function allowedAddresses(host: string, networks: HostNetworks): Promise<LookupAddress[]> {
  if (!networks.allowsSomeAddress) throw new HostNotAllowedError(`no address allowed (${host})`);
  const found = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true });
  const denied = found.find((a) => !networks.allowsAddress(a.address));
  if (denied || found.length === 0)
    throw new HostNotAllowedError(`${host} resolves to ${denied?.address ?? 'nothing'}`);
  return found;
}

/** A `lookup` for sockets that refuses a name resolving outside HOST_NETWORKS before connecting. */
function checkedLookup(networks: HostNetworks) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (err: Error | null, address?: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err);
      const denied = found.find((a) => !networks.allowsAddress(a.address));
      if (denied || found.length === 0)
        return callback(new HostNotAllowedError(`${hostname} resolves to ${denied?.address ?? 'nothing'}`));
      if (options.all) return callback(null, found);
      const first = found.find((a) => !options.family || a.family === options.family) ?? found[0];
      callback(null, first?.address, first?.family);
    });
  };
}

type Modem = {
  host?: string;
  dial: (options: unknown, callback: (err: unknown, data?: unknown) => void) => void;
};

/**
 * The engine client of one host. With `networks`, every connection is checked when it is made:
 * the socket path, the literal address, the addresses a name resolves to (TCP: in the socket's
 * own lookup; SSH: resolved, checked and pinned before ssh2 connects). Refusals are
 * HostNotAllowedError, and nothing is sent.
 */
export function connectDocker(s: DockerSettings, networks?: HostNetworks): Docker {
  const options: Docker.DockerOptions & { agent?: http.Agent } = dockerOptionsFor(s);
  if (networks && s.connection === 'tcp') {
    const Agent = s.tls ? https.Agent : http.Agent;
    options.agent = new Agent({ lookup: checkedLookup(networks) as never });
  }
  const docker = new Docker(options);
  if (!networks) return docker;
  const modem = docker.modem as unknown as Modem;
  const dial = modem.dial.bind(modem);
  const admit = async () => {
    if (s.connection === 'socket') {
      const socketPath = s.socketPath ?? DEFAULT_SOCKET;
      if (!networks.allowsSocket(socketPath)) throw new HostNotAllowedError(`socket ${socketPath}`);
      return;
    }
    const host = s.host ?? '';
    // TCP to a name is checked in the socket's own lookup (checkedLookup), where TLS keeps the name.
    if (s.connection === 'tcp' && !isIP(host)) {
      if (!networks.allowsSomeAddress) throw new HostNotAllowedError(`no address allowed (${host})`);
      return;
    }
    const found = await allowedAddresses(host, networks);
    if (s.connection === 'ssh' && !isIP(host)) {
      // ssh2 connects to what it is given: the checked address, not a second lookup. (IPv4 only:
      // docker-modem builds a URL from the host, which a bare IPv6 address breaks; a name with
      // IPv6 addresses only is dialled by name, after the check.)
      const v4 = found.find((a) => a.family === 4);
      modem.host = v4 ? v4.address : host;
    }
  };
  modem.dial = (opts, callback) => {
    admit().then(
      () => {
        try {
          dial(opts, callback);
        } catch (err) {
          callback(err);
        }
      },
      (err) => callback(err),
    );
  };
  return docker;
}
