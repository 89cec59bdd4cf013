import type Docker from 'dockerode';
import { LABELS } from '../host-driver.ts';
import { execOutput } from './exec.ts';
import { GPU_QUERY_COMMAND, type GpuReading, parseGpuQuery } from './nvidia-smi.ts';

/** The host's long-lived helper that sees every GPU; one nvidia-smi exec in it per sample. */
export const GPU_MONITOR_NAME = 'gpu-platform-monitor';

const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;

/** The helper, made and started when missing. Never pulls: the probe pulled its image. */
async function ensureMonitor(docker: Docker, image: string): Promise<Docker.Container | null> {
  const c = docker.getContainer(GPU_MONITOR_NAME);
  let running: boolean;
  try {
    running = (await c.inspect()).State.Running;
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
    try {
      await docker.getImage(image).inspect();
    } catch (imageErr) {
      if (statusOf(imageErr) === 404) return null;
      throw imageErr;
    }
    await docker
      .createContainer({
        name: GPU_MONITOR_NAME,
        Image: image,
        Entrypoint: ['sh', '-c'],
        Cmd: ['while :; do sleep 3600; done'],
        // Not the instances' label: list, cleanup and reconcile never see it.
        Labels: { [`${LABELS.managed}-probe`]: 'true' },
        HostConfig: {
          RestartPolicy: { Name: 'unless-stopped' },
          DeviceRequests: [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu', 'utility']] }],
        },
      })
      .catch((e: unknown) => {
        // Another replica made it at the same moment: that one is as good.
        if (statusOf(e) !== 409) throw e;
      });
    running = false;
  }
  if (!running) {
    await c.start().catch((e: unknown) => {
      if (statusOf(e) !== 304) throw e;
    });
  }
  return c;
}

/**
 * Every GPU of the host as nvidia-smi reads it now, or none where the host cannot tell (no NVIDIA
 * runtime, the probe image absent, nvidia-smi missing or failing): charts then show no GPU figures,
 * which is not a sampling error.
 */
export async function readHostGpus(
  docker: Docker,
  opts: { image: string; nvidiaRuntime: boolean },
): Promise<GpuReading[]> {
  if (!opts.nvidiaRuntime) return [];
  try {
    const c = await ensureMonitor(docker, opts.image);
    if (!c) return [];
    const r = await execOutput(docker, c.id, GPU_QUERY_COMMAND);
    return r.exitCode === 0 ? parseGpuQuery(r.output) : [];
  } catch {
    return [];
  }
}
