import type Docker from 'dockerode';
import { LABELS } from '../host-driver.ts';
import { NVIDIA_SMI_SCRIPT, type NvidiaSmiReport, parseNvidiaSmi } from './nvidia-smi.ts';

/** Pulls the image unless the engine has it. */
async function ensureImage(docker: Docker, image: string): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
  }
  const stream = await docker.pull(image);
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null) => (err ? reject(err) : resolve())),
  );
}

/**
 * The GPU inventory from a one-shot container that sees every GPU (`Count: -1`, no device ids)
 * and runs nvidia-smi; the NVIDIA container toolkit mounts nvidia-smi into any image.
 */
export async function runNvidiaSmi(docker: Docker, image: string): Promise<NvidiaSmiReport> {
  await ensureImage(docker, image);
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['sh', '-c'],
    Cmd: [NVIDIA_SMI_SCRIPT],
    Tty: true,
    Labels: { [`${LABELS.managed}-probe`]: 'true' },
    HostConfig: { DeviceRequests: [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu', 'utility']] }] },
  });
  try {
    await container.start();
    const done = (await container.wait()) as { StatusCode?: number };
    const logs: unknown = await container.logs({ stdout: true, stderr: true });
    const output = Buffer.isBuffer(logs) ? logs.toString('utf8') : String(logs);
    if (done.StatusCode !== 0)
      throw new Error(`nvidia-smi exited ${done.StatusCode}: ${output.slice(0, 300)}`);
    return parseNvidiaSmi(output);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
