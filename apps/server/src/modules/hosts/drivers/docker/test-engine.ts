import { existsSync, readFileSync } from 'node:fs';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../host-driver.ts';
import { execOutput } from './exec.ts';

/** The test image scripts/with-docker.sh builds (busybox rootfs, `docker import`). */
export const TEST_IMAGE = 'gpu-test/busybox:latest';
/** Serves HTTP on 22 and 8888 so a test can see a port binding work, and stops at once on SIGTERM. */
export const TEST_COMMAND = [
  'sh',
  '-c',
  'echo ok >/tmp/index.html; httpd -p 22 -h /tmp; httpd -p 8888 -h /tmp; exec sleep 3600',
];

/** The engine of DOCKER_HOST (unix sockets only), or the default socket. */
export const testSocketPath = () => {
  const h = process.env.DOCKER_HOST;
  return h?.startsWith('unix://') ? h.slice('unix://'.length) : '/var/run/docker.sock';
};

export type EngineCheck = { ok: true; socketPath: string } | { ok: false; why: string };

/** Whether a real engine answers and has the test image. */
export async function checkTestEngine(): Promise<EngineCheck> {
  const socketPath = testSocketPath();
  const docker = new Docker({ socketPath, timeout: 5_000 });
  try {
    await docker.ping();
  } catch (err) {
    return { ok: false, why: `no Docker engine answers at unix://${socketPath} (${(err as Error).message})` };
  }
  try {
    await docker.getImage(TEST_IMAGE).inspect();
  } catch {
    return { ok: false, why: `the engine at unix://${socketPath} has no ${TEST_IMAGE}` };
  }
  return { ok: true, socketPath };
}

/**
 * Runs `define` when a real engine is there. Without one it fails under CI=true (the docker
 * driver is never silently skipped in CI) and skips with the reason elsewhere.
 */
export function withTestEngine(title: string, check: EngineCheck, define: (socketPath: string) => void) {
  if (check.ok) {
    define(check.socketPath);
    return;
  }
  const hint = 'run it under scripts/with-docker.sh (starts dockerd and builds the test image)';
  if (process.env.CI === 'true') {
    describe(title, () => {
      it('needs a real Docker engine in CI', () => {
        throw new Error(`CI=true but ${check.why}; ${hint}`);
      });
    });
    return;
  }
  console.warn(`[skip] ${title}: ${check.why}; ${hint}`);
  describe.skip(`${title} (skipped: ${check.why})`, () => {
    it('needs a real Docker engine', () => undefined);
  });
}

/** A docker host row as the drivers read it, without a database. */
export function dockerHostRecord(
  settings: Record<string, unknown>,
  over: Partial<HostRecord> = {},
): HostRecord {
  const at = new Date();
  return {
    id: 990_001,
    regionId: 1,
    name: 'docker-test',
    driver: 'docker',
    status: 'ACTIVE',
    publicAddress: '127.0.0.1',
    settings,
    cpuModel: '',
    cpuCores: 0,
    memoryGb: 0,
    systemDiskGb: 0,
    dataDiskGb: 0,
    portRangeStart: 30_000,
    portRangeEnd: 30_199,
    nvidiaDriver: '',
    cudaVersion: '',
    lastProbeAt: null,
    lastProbeOk: null,
    lastProbeError: null,
    engineVersion: '',
    nvidiaRuntime: null,
    gpuSource: 'declared',
    diskLimitSupported: null,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

/** Runs a command in a running container; answers its exit code and output (stdout and stderr). */
export async function execIn(
  docker: Docker,
  containerId: string,
  cmd: string[],
): Promise<{ exitCode: number; output: string }> {
  return execOutput(docker, containerId, cmd, { keep: Number.MAX_SAFE_INTEGER });
}

/** The environment of a running container's first process: what its programs see. */
export const environOf = async (docker: Docker, id: string) => {
  const r = await execIn(docker, id, ['sh', '-c', "tr '\\0' '\\n' </proc/1/environ"]);
  expect(r.exitCode, r.output).toBe(0);
  const env: Record<string, string> = {};
  for (const line of r.output.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
};

/** What the stand-in NVIDIA hook (scripts/docker-test) was given at a container's last start. */
export const hookSaw = (id: string) => {
  const log = process.env.NVIDIA_HOOK_LOG;
  if (!log || !existsSync(log)) return null;
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${id} `));
  return lines.at(-1)?.slice(id.length + 1) ?? null;
};
