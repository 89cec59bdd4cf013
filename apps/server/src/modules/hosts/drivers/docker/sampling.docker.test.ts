import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HostNetworks, parseHostNetworks } from '../../../../platform/host-networks.ts';
import { createHostDriverRegistry } from '../registry.ts';
import { GPU_MONITOR_NAME } from './gpu-monitor.ts';
import {
  checkTestEngine,
  dockerHostRecord,
  execIn,
  TEST_COMMAND,
  TEST_IMAGE,
  withTestEngine,
} from './test-engine.ts';

/**
 * Monitoring samples on a real engine (issue 31). The engine has no GPU; a helper image with a
 * stand-in nvidia-smi that prints the captured H100 line's shape for GPUs 0–3 takes the real
 * path: helper container, one exec, parse, each instance's own GPUs by host index.
 */
const FAKE_SMI_IMAGE = 'gpu-test/fake-nvidia-smi:latest';
const SMI_LINES = [0, 1, 2, 3].map(
  (i) => `${i}, GPU-0eb62837-c62f-164e-80b7-84f0fb6b45${i}0, ${10 * i + 5}, ${1000 * i}, 81559`,
);
const check = await checkTestEngine();

withTestEngine('docker driver samples on a real engine', check, (socketPath) => {
  const docker = new Docker({ socketPath });
  const registry = createHostDriverRegistry({
    db: undefined as never,
    hostNetworks: parseHostNetworks(`unix:${socketPath}`) as HostNetworks,
  });
  const settings = (probeImage: string) => ({
    connection: 'socket',
    socketPath,
    bindAddress: '127.0.0.1',
    stopTimeoutS: 1,
    probeImage,
    gpus: { model: 'H100', brand: 'NVIDIA', memoryGb: 80, count: 4 },
  });
  const made: string[] = [];
  const dropMonitor = () =>
    docker
      .getContainer(GPU_MONITOR_NAME)
      .remove({ force: true })
      .catch(() => undefined);

  beforeAll(async () => {
    // The stand-in nvidia-smi: a busybox image with a script of that name.
    const c = await docker.createContainer({ Image: TEST_IMAGE, Cmd: ['sleep', '60'] });
    await c.start();
    const script = `#!/bin/sh\nprintf '%s\\n' ${SMI_LINES.map((l) => `'${l}'`).join(' ')}\n`;
    const w = await execIn(docker, c.id, [
      'sh',
      '-c',
      `printf '%s' "$0" > /bin/nvidia-smi && chmod 755 /bin/nvidia-smi`,
      script,
    ]);
    expect(w.exitCode, w.output).toBe(0);
    const [repo, tag] = FAKE_SMI_IMAGE.split(':') as [string, string];
    await c.commit({ repo, tag });
    await c.remove({ force: true });
  });
  afterAll(async () => {
    for (const id of made)
      await docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined);
    await dropMonitor();
    await docker
      .getImage(FAKE_SMI_IMAGE)
      .remove({ force: true })
      .catch(() => undefined);
  });

  const started = async (
    host: ReturnType<typeof dockerHostRecord>,
    instanceId: number,
    gpuIndices: number[],
  ) => {
    const driver = registry.forHost(host);
    const { containerId } = await driver.create({
      name: `sample-${process.pid}-${instanceId}`,
      image: TEST_IMAGE,
      command: TEST_COMMAND,
      instanceId,
      gpuIndices,
      ports: [],
      memoryGb: 1,
      env: { ROOT_PASSWORD: 'x' },
    });
    made.push(containerId);
    await driver.start(containerId);
    return containerId;
  };

  it('reads each instance’s own GPUs from one nvidia-smi on the host, with CPU, memory and disk', async () => {
    await dropMonitor();
    const host = dockerHostRecord(settings(FAKE_SMI_IMAGE), { nvidiaRuntime: true });
    const a = await started(host, 81_001, [1, 3]);
    const b = await started(host, 81_002, [0]);
    await execIn(docker, a, ['sh', '-c', 'dd if=/dev/zero of=/root/blob bs=1024 count=2048 2>/dev/null']);
    const samples = await registry.forHost(host).sample?.();
    const of = (id: string) => samples?.find((s) => s.containerId === id);
    expect(of(a)?.instanceId).toBe(81_001);
    expect(of(a)?.gpus).toEqual([
      { index: 1, util: 15, memUsedMib: 1000, memTotalMib: 81559 },
      { index: 3, util: 35, memUsedMib: 3000, memTotalMib: 81559 },
    ]);
    expect(of(b)?.gpus).toEqual([{ index: 0, util: 5, memUsedMib: 0, memTotalMib: 81559 }]);
    expect(of(a)?.memLimitBytes).toBe(1024 ** 3);
    expect(of(a)?.memUsedBytes).toBeGreaterThan(0);
    // The 2 MiB written to the system disk show in its writable layer.
    expect(of(a)?.diskUsedBytes).toBeGreaterThanOrEqual(2 * 1024 ** 2);
    expect(of(b)?.diskUsedBytes).toBeLessThan(of(a)?.diskUsedBytes ?? 0);
    // The helper stays for the next sample and is not one of the platform's containers.
    const helper = await docker.getContainer(GPU_MONITOR_NAME).inspect();
    expect(helper.State.Running).toBe(true);
    expect((await registry.forHost(host).list()).map((c) => c.id)).not.toContain(helper.Id);
  });

  it('samples with no GPU figures, not an error, where nvidia-smi cannot run', async () => {
    await dropMonitor();
    // The helper image has no nvidia-smi; then an image the engine does not have (never pulled).
    for (const image of [TEST_IMAGE, 'gpu-test/no-such-probe:latest']) {
      const host = dockerHostRecord(settings(image), { nvidiaRuntime: true });
      const id = await started(host, image === TEST_IMAGE ? 81_003 : 81_004, [2]);
      const s = (await registry.forHost(host).sample?.())?.find((x) => x.containerId === id);
      expect(s).toMatchObject({ gpus: [], memLimitBytes: 1024 ** 3 });
      await dropMonitor();
    }
    // Without the NVIDIA runtime no helper is made at all.
    const plain = dockerHostRecord(settings(TEST_IMAGE), { nvidiaRuntime: false });
    expect((await registry.forHost(plain).sample?.())?.length).toBeGreaterThan(0);
    await expect(docker.getContainer(GPU_MONITOR_NAME).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });
});
