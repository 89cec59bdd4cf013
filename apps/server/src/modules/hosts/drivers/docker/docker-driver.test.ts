import { createConnection } from 'node:net';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { type HostNetworks, parseHostNetworks } from '../../../../app/host-networks.ts';
import { hostDriverContract } from '../drivers.test-suite.ts';
import { createHostDriverRegistry } from '../registry.ts';
import {
  checkTestEngine,
  dockerHostRecord,
  TEST_COMMAND,
  TEST_IMAGE,
  withTestEngine,
} from './test-engine.ts';

const GPUS = { model: 'RTX 4090', brand: 'NVIDIA', memoryGb: 24, count: 4 };

/** True when an HTTP answer comes back through the port (docker-proxy accepts before the app listens). */
const httpAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let data = '';
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('connect', () => socket.write('GET / HTTP/1.0\r\n\r\n'));
    socket.on('data', (d) => {
      data += d.toString();
    });
    socket.on('close', () => resolve(data.startsWith('HTTP/')));
    socket.on('error', () => resolve(false));
  });

const check = await checkTestEngine();

withTestEngine('docker driver on a real engine', check, (socketPath) => {
  const settings = {
    connection: 'socket',
    socketPath,
    bindAddress: '127.0.0.1',
    stopTimeoutS: 5,
    gpus: GPUS,
  };
  // No database: the docker driver keeps nothing of its own. HOST_NETWORKS lists the engine's
  // socket and the missing one (unreachable, not refused).
  const registry = createHostDriverRegistry({
    db: undefined as never,
    hostNetworks: parseHostNetworks(`unix:${socketPath},unix:/run/gpu-test-no-engine.sock`) as HostNetworks,
  });
  const docker = new Docker({ socketPath });

  hostDriverContract('docker', async () => ({
    driver: registry.forHost(dockerHostRecord(settings)),
    unreachable: registry.forHost(
      dockerHostRecord({ ...settings, socketPath: '/run/gpu-test-no-engine.sock' }, { id: 990_002 }),
    ),
    image: TEST_IMAGE,
    command: TEST_COMMAND,
    // Below Linux's ephemeral range (32768+): a client socket of the suite may hold such a port.
    portBase: 24_000 + (process.pid % 50) * 20,
    canConnect: httpAnswers,
    createForeignContainer: async () =>
      (await docker.createContainer({ Image: TEST_IMAGE, Cmd: ['sleep', '60'] })).id,
    removeForeignContainer: async (id) => {
      await docker.getContainer(id).remove({ force: true });
    },
    close: async () => undefined,
  }));

  describe('docker driver on a real engine: what the engine tells', () => {
    const spec = (name: string) => ({
      name,
      image: TEST_IMAGE,
      command: TEST_COMMAND,
      instanceId: 4242,
      gpuIndices: [1, 3],
      ports: [],
      diskGb: 20,
      env: { ROOT_PASSWORD: 'x' },
    });

    it('probes an engine without the NVIDIA runtime: declared GPUs, engine facts, a warning', async () => {
      const p = await registry.forHost(dockerHostRecord(settings)).probe();
      expect(p).toMatchObject({ reachable: true, nvidiaRuntime: false, gpuSource: 'declared' });
      expect(p.engineVersion).toMatch(/^\d+\.\d+/);
      expect(p.cpuCores).toBeGreaterThan(0);
      expect(p.gpus).toHaveLength(4);
      expect(p.warnings.join()).toContain('NVIDIA_VISIBLE_DEVICES');
    });

    it('hands GPUs by NVIDIA_VISIBLE_DEVICES and drops the disk size vfs cannot enforce', async () => {
      const driver = registry.forHost(dockerHostRecord(settings, { nvidiaRuntime: false }));
      const { containerId, diskLimitEnforced } = await driver.create(
        spec(`disk-${process.pid}-${Date.now()}`),
      );
      try {
        expect(diskLimitEnforced).toBe(false);
        const info = await docker.getContainer(containerId).inspect();
        expect(info.Config.Env).toContain('NVIDIA_VISIBLE_DEVICES=1,3');
        expect(info.HostConfig.DeviceRequests ?? []).toEqual([]);
        expect(info.HostConfig.StorageOpt ?? {}).toEqual({});
        expect((await driver.inspect(containerId)).gpuIndices).toEqual([1, 3]);
      } finally {
        await driver.remove(containerId);
      }
    });
  });
});
