import { createConnection } from 'node:net';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { type HostNetworks, parseHostNetworks } from '../../../../platform/host-networks.ts';
import { ContainerConflictError } from '../driver-errors.ts';
import { hostDriverContract } from '../drivers.test-suite.ts';
import { LABELS } from '../host-driver.ts';
import { createHostDriverRegistry } from '../registry.ts';
import { SSHD_DROP_IN } from './ssh-access.ts';
import {
  checkTestEngine,
  dockerHostRecord,
  environOf,
  execIn,
  hookSaw,
  TEST_COMMAND,
  TEST_IMAGE,
  withTestEngine,
} from './test-engine.ts';
import { startTestRegistry } from './test-registry.ts';

const GPUS = { model: 'RTX 4090', brand: 'NVIDIA', memoryGb: 24, count: 8 };

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

  let testRegistry: Awaited<ReturnType<typeof startTestRegistry>> | undefined;
  afterAll(() => testRegistry?.stop());
  // Only the push/pull case needs it: without the package that case fails, naming it.
  const imageRegistry = async () => {
    try {
      testRegistry = await startTestRegistry();
      return { registry: testRegistry.address };
    } catch (err) {
      return { registryUnavailable: (err as Error).message };
    }
  };
  const files = {
    async write(id: string, path: string, text: string) {
      const script = `mkdir -p '${path.slice(0, path.lastIndexOf('/')) || '/'}' && printf %s '${text}' > '${path}'`;
      expect((await execIn(docker, id, ['sh', '-c', script])).exitCode).toBe(0);
    },
    async read(id: string, path: string) {
      const r = await execIn(docker, id, ['cat', path]);
      return r.exitCode === 0 ? r.output : null;
    },
  };
  hostDriverContract('docker', async () => ({
    ...(await imageRegistry()),
    // As a GPU host's probe records it: the engine takes NVIDIA device requests (here through
    // the stand-in hook scripts/with-docker.sh puts on dockerd's PATH).
    driver: registry.forHost(dockerHostRecord(settings, { nvidiaRuntime: true })),
    unreachable: registry.forHost(
      dockerHostRecord({ ...settings, socketPath: '/run/gpu-test-no-engine.sock' }, { id: 990_002 }),
    ),
    image: TEST_IMAGE,
    command: TEST_COMMAND,
    // Below Linux's ephemeral range (32768+): a client socket of the suite may hold such a port.
    portBase: 24_000 + (process.pid % 50) * 20,
    canConnect: httpAnswers,
    sshAccessOf: async (id) => {
      const read = async (cmd: string) => {
        const r = await execIn(docker, id, ['sh', '-c', cmd]);
        expect(r.exitCode, r.output).toBe(0);
        return r.output;
      };
      const keys = await read('cat /root/.ssh/authorized_keys');
      const dropIn = await read(`cat ${SSHD_DROP_IN}`);
      return {
        authorizedKeys: keys.split('\n').filter(Boolean),
        passwordAuth: /^PasswordAuthentication yes$/m.test(dropIn)
          ? true
          : /^PasswordAuthentication no$/m.test(dropIn)
            ? false
            : (null as never),
        fileMode: (await read('stat -c %a /root/.ssh/authorized_keys')).trim(),
      };
    },
    files,
    // Another host record on the same engine: the clone's container and volume have their own names.
    otherHost: {
      driver: registry.forHost(
        dockerHostRecord(settings, { id: 990_003, name: 'docker-2', nvidiaRuntime: true }),
      ),
      files,
    },
    visibleDevicesOf: async (id) => (await environOf(docker, id)).NVIDIA_VISIBLE_DEVICES,
    envOf: (id) => environOf(docker, id),
    nvidiaRequestOf: async (id) => {
      const info = await docker.getContainer(id).inspect();
      const request = (info.HostConfig.DeviceRequests ?? []).find((r) => r.Driver === 'nvidia');
      return { deviceIds: request?.DeviceIDs ?? null, hookSaw: hookSaw(id) };
    },
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
      expect(p.gpus).toHaveLength(8);
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

  describe('docker driver on a real engine: what keeps customers apart', () => {
    const driver = registry.forHost(dockerHostRecord(settings, { nvidiaRuntime: false }));
    let n = 0;
    const spec = (over: Record<string, unknown> = {}) => {
      n += 1;
      return {
        name: `iso-${process.pid}-${Date.now().toString(36)}-${n}`,
        image: TEST_IMAGE,
        command: TEST_COMMAND,
        instanceId: 7_000 + n,
        userId: 7,
        gpuIndices: [0],
        ports: [],
        env: { ROOT_PASSWORD: 'x' },
        ...over,
      };
    };
    const started = async (s: ReturnType<typeof spec>) => {
      const { containerId } = await driver.create(s);
      await driver.start(containerId);
      return containerId;
    };
    const sh = (id: string, script: string) => execIn(docker, id, ['sh', '-c', script]);
    const addressOf = async (id: string) => {
      const nets = (await docker.getContainer(id).inspect()).NetworkSettings.Networks;
      return Object.values(nets).map((e) => ({ ip: e.IPAddress, gateway: e.Gateway }))[0] as {
        ip: string;
        gateway: string;
      };
    };

    it('the kernel holds the container to its limits: processes, memory, no new privileges, kept capabilities', async () => {
      const id = await started(spec({ pidsLimit: 64, memoryGb: 1 }));
      try {
        // cgroup v1 (these machines) or v2.
        const pids = await sh(
          id,
          'cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max',
        );
        expect(pids.output.trim()).toBe('64');
        const mem = await sh(
          id,
          'cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max',
        );
        expect(mem.output.trim()).toBe(String(1024 ** 3));
        const status = (await sh(id, 'cat /proc/1/status')).output;
        expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
        // AUDIT_WRITE 29, CHOWN 0, DAC_OVERRIDE 1, FOWNER 3, KILL 5, SETGID 6, SETUID 7,
        // NET_BIND_SERVICE 10, SYS_CHROOT 18; nothing else (no NET_RAW 13, no MKNOD 27).
        expect(status).toMatch(/^CapEff:\s+00000000200404eb$/m);
        expect(status).toMatch(/^CapBnd:\s+00000000200404eb$/m);
        // A fork bomb stops at the limit instead of taking the host's process table.
        // The forking runs in a subshell (a shell that cannot fork exits); the count is read
        // with the shell's own `read`: at the limit nothing can be forked to read it.
        const forks = await sh(
          id,
          '(for i in $(seq 1 80); do sleep 30 & done; echo all-forked) 2>/dev/null; ' +
            'read c </sys/fs/cgroup/pids/pids.current || read c </sys/fs/cgroup/pids.current; echo "current=$c"',
        );
        expect(forks.output).not.toContain('all-forked');
        // Full at 64, less the subshell that gave up and exited.
        expect(forks.output).toContain('current=63');
      } finally {
        await driver.remove(id);
      }
    });

    it('puts every instance on a network of its own: another customer is no neighbour on it', async () => {
      const a = spec();
      const b = spec();
      const idA = await started(a);
      const idB = await started(b);
      try {
        const netA = await docker.getNetwork(a.name).inspect();
        const netB = await docker.getNetwork(b.name).inspect();
        expect(Object.keys(netA.Containers ?? {})).toEqual([idA]);
        expect(Object.keys(netB.Containers ?? {})).toEqual([idB]);
        expect(netA.Labels).toMatchObject({
          [LABELS.managed]: 'true',
          [LABELS.instanceId]: String(a.instanceId),
        });
        const [subnetA, subnetB] = [netA, netB].map((x) => x.IPAM?.Config?.[0]?.Subnet);
        expect(subnetA).toBeTruthy();
        expect(subnetA).not.toBe(subnetB);
        const addrA = await addressOf(idA);
        const addrB = await addressOf(idB);
        // A serves on 8888 and answers on its own network.
        const probe = (ip: string) => `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 3 ${ip} 8888`;
        expect((await sh(idA, probe(addrA.ip))).output).toContain('HTTP/1.');
        // B shares no link with A: A is not on-link for B (on one bridge it would be), the only
        // way there is through B's gateway, the host, where dockerd's iptables rules
        // (DOCKER-ISOLATION) drop traffic between bridges.
        const route = (await sh(idB, `ip route get ${addrA.ip}`)).output;
        expect(route).toContain(`via ${addrB.gateway}`);
        if (process.env.DOCKER_TEST_IPTABLES === 'on') {
          // An engine that manages iptables, as in production: B cannot reach A at all.
          expect((await sh(idB, probe(addrA.ip))).output).not.toContain('HTTP/1.');
        }
      } finally {
        await driver.remove(idA);
        await driver.remove(idB);
      }
      await expect(docker.getNetwork(a.name).inspect()).rejects.toMatchObject({ statusCode: 404 });
    });

    it('adopts the network left by a crash before its container, and never takes one that is not its own', async () => {
      const s = spec();
      // A crash after the network was made: the retried create uses it.
      await docker.createNetwork({
        Name: s.name,
        Driver: 'bridge',
        Labels: { [LABELS.managed]: 'true', [LABELS.instanceId]: String(s.instanceId) },
      });
      const id = await started(s);
      expect((await driver.inspect(id)).isolation?.networks).toEqual([s.name]);
      await driver.remove(id);
      // Someone else's network of that name: refused, and left as it was.
      const foreign = spec();
      const made = await docker.createNetwork({ Name: foreign.name, Driver: 'bridge' });
      try {
        await expect(driver.create(foreign)).rejects.toBeInstanceOf(ContainerConflictError);
        expect(await driver.findByName(foreign.name)).toBeNull();
        expect((await docker.getNetwork(made.id).inspect()).Name).toBe(foreign.name);
      } finally {
        await docker.getNetwork(made.id).remove();
      }
    });
  });
});
