import type Docker from 'dockerode';
import type { SshAccess } from '../host-driver.ts';
import { execOutput } from './exec.ts';

/** The sshd drop-in that carries the password switch (first match wins in sshd_config.d: 00-). */
export const SSHD_DROP_IN = '/etc/ssh/sshd_config.d/00-gpu-platform.conf';

/**
 * Run in the container as root, with the keys and the switch in the exec's environment (never in
 * the script: nothing the user typed is parsed by a shell). Writes authorized_keys whole (keys
 * removed since the last start go away), writes the drop-in where the image has sshd, and asks a
 * running sshd to re-read its configuration (SIGHUP), since the image's own start may have run it.
 */
const SCRIPT = [
  'set -e',
  'umask 077',
  'mkdir -p /root/.ssh',
  'printf "%s\\n" "$SSH_AUTHORIZED_KEYS" | grep -v "^$" >/root/.ssh/authorized_keys.tmp || true',
  'mv /root/.ssh/authorized_keys.tmp /root/.ssh/authorized_keys',
  'chmod 700 /root/.ssh',
  'chmod 600 /root/.ssh/authorized_keys',
  'if [ -d /etc/ssh ]; then',
  '  mkdir -p /etc/ssh/sshd_config.d',
  `  printf "PasswordAuthentication %s\\n" "$SSH_PASSWORD_AUTH" >${SSHD_DROP_IN}`,
  `  chmod 644 ${SSHD_DROP_IN}`,
  '  if [ -f /var/run/sshd.pid ]; then kill -HUP "$(cat /var/run/sshd.pid)" 2>/dev/null || true; fi',
  'fi',
].join('\n');

/** Writes the SSH access into a running container through an exec; fails on a non-zero exit. */
export async function installSshAccessByExec(docker: Docker, id: string, access: SshAccess): Promise<void> {
  const { exitCode, output } = await execOutput(docker, id, ['sh', '-c', SCRIPT], {
    user: '0',
    env: [
      `SSH_AUTHORIZED_KEYS=${access.authorizedKeys.join('\n')}`,
      `SSH_PASSWORD_AUTH=${access.passwordAuth ? 'yes' : 'no'}`,
    ],
    keep: 2_000,
  });
  if (exitCode !== 0) throw new Error(`installing SSH access exited ${exitCode}: ${output.trim()}`);
}
