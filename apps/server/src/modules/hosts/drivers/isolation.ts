import { GIB } from '@gpu/shared/sizes';

/** What isolation reads of a container's spec (ContainerSpec has these fields). */
interface IsolatedSpec {
  name: string;
  pidsLimit?: number;
  memoryGb?: number;
}

/** How a container is fenced off from the host and from other customers' containers. */
export interface ContainerIsolation {
  /** Null: no limit (a container made before the limit existed). */
  pidsLimit: number | null;
  /** Memory limit in bytes; null is unlimited. */
  memoryBytes: number | null;
  /** `no-new-privileges`: setuid binaries and file capabilities cannot raise privileges. */
  noNewPrivileges: boolean;
  /** Linux capabilities dropped and added back, upper case without `CAP_`, sorted. */
  capDrop: string[];
  capAdd: string[];
  /** Networks the container is attached to: only its own. */
  networks: string[];
}

/** Processes and threads an instance may run when its spec does not say (per GPU: hosts.models). */
export const DEFAULT_PIDS_LIMIT = 4096;

/**
 * The capabilities an instance container keeps after dropping all: what sshd and JupyterLab
 * need as root. sshd: NET_BIND_SERVICE (port 22), SYS_CHROOT (privilege separation),
 * SETUID/SETGID (dropping to the user), CHOWN (its pty), AUDIT_WRITE (PAM login records),
 * KILL (signalling its children of other users). Root's usual file work (apt, pip, conda):
 * DAC_OVERRIDE, FOWNER, CHOWN. Docker's defaults left out: NET_RAW (forging and sniffing
 * packets on the bridge), MKNOD, SETFCAP, SETPCAP, FSETID (no-new-privileges voids setuid anyway).
 */
export const INSTANCE_CAPABILITIES = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'KILL',
  'NET_BIND_SERVICE',
  'SETGID',
  'SETUID',
  'SYS_CHROOT',
] as const;

/** The network of a container: its own bridge, named after it (one per instance). */
export const networkNameOf = (spec: Pick<IsolatedSpec, 'name'>) => spec.name;

/** The isolation every container of this spec gets; drivers that run containers apply exactly this. */
export function isolationOf(spec: IsolatedSpec): ContainerIsolation {
  return {
    pidsLimit: spec.pidsLimit ?? DEFAULT_PIDS_LIMIT,
    memoryBytes: spec.memoryGb ? Math.round(spec.memoryGb * GIB) : null,
    noNewPrivileges: true,
    capDrop: ['ALL'],
    capAdd: [...INSTANCE_CAPABILITIES],
    networks: [networkNameOf(spec)],
  };
}
