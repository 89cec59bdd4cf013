import type { ContainerSpec, HostDriver, SshAccess } from './host-driver.ts';

/** What one implementation hands the contract suite. */
export interface DriverHarness {
  /** A driver bound to a reachable host that declares at least two GPUs. */
  driver: HostDriver;
  /** The same host as unreachable (offline simulated host, engine address with nothing behind it). */
  unreachable: HostDriver;
  /** An image present on the host, and a command that keeps it running with something on port 22. */
  image: string;
  command?: string[];
  /** First of a few host ports free for this suite. */
  portBase: number;
  /** Makes a container on the same host without the platform's labels; returns its id. */
  createForeignContainer(): Promise<string>;
  removeForeignContainer(id: string): Promise<void>;
  /** Answers whether something accepts connections on the host port (real engines only). */
  canConnect?(port: number): Promise<boolean>;
  /**
   * Drivers with `installSshAccess`: what the running container holds now (docker: read inside
   * by an exec; simulated: the recorded row), plus authorized_keys' file mode where there is a file.
   */
  sshAccessOf?(containerId: string): Promise<SshAccess & { fileMode?: string }>;
  /**
   * Drivers with data volumes: writes and reads a text file in a running container (null when
   * there is none), so the suite sees what a recreate keeps.
   */
  files?: {
    write(containerId: string, path: string, text: string): Promise<void>;
    read(containerId: string, path: string): Promise<string | null>;
  };
  /**
   * NVIDIA_VISIBLE_DEVICES as a running container's processes see it (docker: read inside);
   * without it the suite takes `inspect`'s `visibleDevices`.
   */
  visibleDevicesOf?(containerId: string): Promise<string | undefined>;
  /**
   * Engines that take NVIDIA device requests: the device ids the container asked for (null: no
   * request) and what the NVIDIA prestart hook was given at its last start (null: not run).
   */
  nvidiaRequestOf?(containerId: string): Promise<{ deviceIds: string[] | null; hookSaw: string | null }>;
  /** The environment a running container's processes have, where the driver keeps values. */
  envOf?(containerId: string): Promise<Record<string, string>>;
  /** Drivers with user images: a registry (host[:port]) the suite may push to and pull from. */
  registry?: string;
  /** Why there is none (the registry would not start): the registry test fails saying so. */
  registryUnavailable?: string;
  /**
   * Drivers that clone to other hosts: a second host of the same kind (docker: another host record
   * on the same engine; simulated: another host row), with its own files reader.
   */
  otherHost?: { driver: HostDriver; files: NonNullable<DriverHarness['files']> };
  /** The host reports GPU figures in its samples (simulated; docker only where nvidia-smi runs). */
  gpuFigures?: boolean;
  /** Fields a create of this driver needs beyond the common spec (vast.ai: a fresh offer). */
  specExtras?(): Partial<ContainerSpec>;
  close(): Promise<void>;
}

/**
 * How a driver differs where the platform does not choose: a rented cloud instance (vast.ai)
 * has the provider's ids, host ports and no stop time. Defaults are a container engine's.
 */
export interface DriverTraits {
  /** Container id shape. */
  idPattern?: RegExp;
  /** The provider picks host ports: bindings keep their container ports, host ports are its own. */
  providerPicksPorts?: boolean;
  /** The provider does not report when an instance stopped. */
  noFinishedAt?: boolean;
  /** The provider isolates its instances its own way (a rented machine): nothing to inspect. */
  providerIsolates?: boolean;
}
