import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { instances } from '../instances/instances.tables.ts';
import { runReconcile } from '../instances/tasks/reconcile.ts';
import { allocateOnHost } from './allocation.ts';
import { gpuSkus } from './catalog.tables.ts';
import { createInstanceContainer } from './containers.usecases.ts';
import { checkTestEngine, TEST_COMMAND, TEST_IMAGE, withTestEngine } from './drivers/docker/test-engine.ts';
import { ContainerNotFoundError } from './drivers/driver-errors.ts';
import { LABELS } from './drivers/host-driver.ts';
import { buildInstanceContainerSpec, containerNameOf } from './drivers/instance-spec.ts';
import { dataVolumeNameOf } from './drivers/volumes.ts';
import { hosts, regions } from './hosts.tables.ts';

const check = await checkTestEngine();

/** The "done when": an admin adds the local engine as a host, and it sells its GPUs. */
withTestEngine('a docker host on the local engine, through the API', check, (socketPath) => {
  describe('a docker host on the local engine, through the API', () => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    let admin: Record<string, string>;
    let hostId: number;
    beforeAll(async () => {
      // The local engine's socket is the one place HOST_NETWORKS lets this app connect to.
      t = await createTestApp({ config: { HOST_NETWORKS: `unix:${socketPath}` } });
      admin = await t.adminHeaders();
    });
    afterAll(() => t?.close());

    const market = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/gpu/market?size=48',
        headers: { 'x-tenant-host': 'localhost' },
      });
      return (res.json().data.list as { hostName: string }[]).find((i) => i.hostName === 'local-docker-01');
    };

    it('adds the host, tests its connection, inits its ports, and the market shows its GPUs', async () => {
      const [region] = await t.db.select().from(regions).where(eq(regions.code, 'anhui-a'));
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/hosts',
        headers: admin,
        payload: {
          name: 'local-docker-01',
          regionId: region?.id,
          driver: 'docker',
          publicAddress: '127.0.0.1',
          // Below Linux's ephemeral range (32768+), where a test's own client sockets (PostgreSQL
          // pools, spawned servers) could already hold the port docker-proxy wants.
          portRangeStart: 23_000,
          portRangeEnd: 23_019,
          settings: {
            connection: 'socket',
            socketPath,
            bindAddress: '127.0.0.1',
            stopTimeoutS: 5,
            gpus: { model: 'RTX 4090 D', memoryGb: 24, count: 2 },
          },
          sku: { hourlyPrice: 1.58, cpuPerGpu: 1, memoryPerGpuGb: 1, systemDiskGb: 10, dataDiskGb: 10 },
        },
      });
      expect(created.statusCode).toBe(200);
      hostId = created.json().data.id;

      const probe = await t.app.inject({
        method: 'POST',
        url: `/api/admin/hosts/${hostId}/test-connection`,
        headers: admin,
      });
      expect(probe.json()).toMatchObject({
        message: '连接成功',
        data: { reachable: true, nvidiaRuntime: false, gpuSource: 'declared', error: null },
      });
      expect(probe.json().data.engineVersion).toMatch(/^\d+\.\d+/);
      expect(probe.json().data.host).toMatchObject({ lastProbeOk: true, gpuTotal: 2, nvidiaRuntime: false });
      expect(probe.json().data.host.cpuCores).toBeGreaterThan(0);

      const ports = await t.app.inject({
        method: 'POST',
        url: `/api/admin/hosts/${hostId}/init-ports`,
        headers: admin,
      });
      expect(ports.json().data).toEqual({ total: 20, added: 0, removed: 0, allocated: 0 });

      expect(await market()).toMatchObject({
        gpuName: 'RTX 4090 D',
        gpuNum: 2,
        gpuIdleNum: 2,
        price: 1.58,
        isLocalDocker: true,
      });
    });

    it('runs an instance container there with its GPUs and ports, and cleanup removes it once the instance is gone', async () => {
      const { user, headers } = await t.createUser();
      const a = await t.db.transaction((tx) => allocateOnHost(tx, { hostId, instanceId: 9001, gpuCount: 1 }));
      expect(a).toMatchObject({ gpus: [{ index: 0 }], ports: [23_000, 23_001] });
      const spec = buildInstanceContainerSpec({
        instanceId: 9001,
        userId: user.id,
        image: TEST_IMAGE,
        gpuIndices: [0],
        ports: a.ports,
        sku: { cpuPerGpu: 1, memoryPerGpuGb: 1, systemDiskGb: 10, dataDiskGb: 10 },
        rootPassword: 'Root-Pass-123',
        jupyterToken: 'Jupyter-Token-456',
      });
      const created = await createInstanceContainer(t.app.deps.modules.hosts, hostId, {
        ...spec,
        command: TEST_COMMAND,
      });
      expect(created.diskLimitEnforced).toBe(false);
      const [row] = await t.db.select().from(hosts).where(eq(hosts.id, hostId));
      expect(row?.diskLimitSupported).toBe(false);

      const driver = t.app.deps.modules.hosts.hostDrivers.forHost(row as typeof hosts.$inferSelect);
      await driver.start(created.containerId);
      const state = await driver.inspect(created.containerId);
      expect(state).toMatchObject({ running: true, instanceId: 9001, userId: user.id, gpuIndices: [0] });
      expect(state.ports.map((p) => p.hostPort)).toEqual([23_000, 23_001]);
      // Its data volume, sized from the SKU (recorded: vfs cannot enforce it), at /root/data.
      expect(state.dataVolume).toEqual({ name: dataVolumeNameOf(9001), mountPath: '/root/data' });
      expect((await driver.listVolumes?.())?.find((v) => v.instanceId === 9001)).toMatchObject({
        name: dataVolumeNameOf(9001),
        sizeGb: 10,
      });
      // JupyterLab gets its own token, not the root password.
      const env = (await new Docker({ socketPath }).getContainer(created.containerId).inspect()).Config.Env;
      expect(env).toEqual(
        expect.arrayContaining(['ROOT_PASSWORD=Root-Pass-123', 'JUPYTER_TOKEN=Jupyter-Token-456']),
      );

      const free = await t.app.inject({
        method: 'GET',
        url: `/api/gpu/docker/gpus/available?hostId=${hostId}`,
        headers,
      });
      expect(free.json().data).toMatchObject({ total: 2, free: 1, usedIds: [0], freeIds: [1] });

      // The instance is gone (released); a customer's cleanup visits the hosts of their ended instances.
      await endedInstance(9001, user, 'RELEASED');
      const cleanup = await t.app.inject({ method: 'POST', url: '/api/gpu/docker/cleanup', headers });
      expect(cleanup.json().data.removed).toEqual([
        { hostId, containerId: created.containerId, instanceId: 9001 },
      ]);
      await expect(driver.inspect(created.containerId)).rejects.toBeInstanceOf(ContainerNotFoundError);
      // Its network and its data volume went with it.
      expect((await driver.listNetworks?.())?.map((n) => n.name)).not.toContain(containerNameOf(9001));
      expect((await driver.listVolumes?.())?.map((v) => v.name)).not.toContain(dataVolumeNameOf(9001));
      expect(await market()).toMatchObject({ gpuIdleNum: 2 });
      // The next test deletes the host, which a host with instance history refuses.
      await t.db.delete(instances).where(eq(instances.id, 9001));
    });

    /** The row a customer's orphan has: an ended instance of theirs on the host (cleanup visits only such hosts). */
    const endedInstance = async (
      id: number,
      user: { id: number; tenantId: number },
      status: 'RELEASED' | 'FAILED',
    ) => {
      const [sku] = await t.db.select().from(gpuSkus).where(eq(gpuSkus.hostId, hostId));
      const [region] = await t.db.select().from(regions).where(eq(regions.code, 'anhui-a'));
      await t.db.insert(instances).values({
        id,
        tenantId: user.tenantId,
        userId: user.id,
        hostId,
        skuId: sku?.id as number,
        regionId: region?.id as number,
        name: 'gone',
        image: TEST_IMAGE,
        gpuModel: 'RTX 4090 D',
        gpuCount: 1,
        billingType: 'hourly',
        hourlyRate: 0,
        status,
        rootPasswordEnc: 'x',
      });
    };

    it("cleanup removes the networks of instances that are gone (a crash between network and container), only the user's", async () => {
      const { user, headers } = await t.createUser();
      const other = await t.createUser();
      // A crash between network and container fails the create: the instance ended, FAILED.
      await endedInstance(9101, user, 'FAILED');
      const docker = new Docker({ socketPath });
      // What a crash right after the network was made leaves: a labelled network, no container.
      const leftover = (instanceId: number, userId: number) =>
        docker.createNetwork({
          Name: containerNameOf(instanceId),
          Driver: 'bridge',
          Labels: {
            [LABELS.managed]: 'true',
            [LABELS.instanceId]: String(instanceId),
            [LABELS.hostId]: String(hostId),
            [LABELS.userId]: String(userId),
          },
        });
      const mine = await leftover(9101, user.id);
      const theirs = await leftover(9102, other.user.id);
      try {
        const cleanup = await t.app.inject({ method: 'POST', url: '/api/gpu/docker/cleanup', headers });
        expect(cleanup.statusCode).toBe(200);
        await expect(docker.getNetwork(mine.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
        expect((await docker.getNetwork(theirs.id).inspect()).Name).toBe(containerNameOf(9102));
        // Reconcile (everyone's) takes the other one.
        const result = await runReconcile(t.app.deps.modules.instances);
        expect(result.orphanNetworksRemoved).toContain(containerNameOf(9102));
        await expect(docker.getNetwork(theirs.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
      } finally {
        // The next test deletes the host, which a host with instance history refuses.
        await t.db.delete(instances).where(eq(instances.id, 9101));
        for (const n of [mine, theirs])
          await docker
            .getNetwork(n.id)
            .remove()
            .catch(() => undefined);
      }
    });

    it('deletes the host once nothing is allocated', async () => {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/hosts/${hostId}`, headers: admin });
      expect(res.statusCode).toBe(200);
    });
  });
});
