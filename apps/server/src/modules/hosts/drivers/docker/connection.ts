import { type DockerSettings, dockerSettingsSchema } from '@gpu/shared';
import Docker from 'dockerode';
import { DriverFailureError } from '../driver-errors.ts';
import type { HostRecord } from '../host-driver.ts';

export const DEFAULT_SOCKET = '/var/run/docker.sock';

/** The host's docker settings; they were validated when written, so a failure here is a data fault. */
export function dockerSettingsOf(host: HostRecord): DockerSettings {
  const parsed = dockerSettingsSchema.safeParse(host.settings ?? {});
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

export const connectDocker = (s: DockerSettings): Docker => new Docker(dockerOptionsFor(s));
