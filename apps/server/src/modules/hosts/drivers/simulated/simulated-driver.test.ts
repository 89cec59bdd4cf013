import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../platform/db/client.ts';
import { createTestDatabase } from '../../../../test/test-app.ts';
import { hostGpus, hosts, regions, simulatedContainers, simulatedVolumes } from '../../hosts.tables.ts';
import { DriverFailureError, GpuUnavailableError, ImageNotFoundError } from '../driver-errors.ts';
import { hostDriverContract } from '../drivers.test-suite.ts';
import type { ContainerSpec, HostRecord } from '../host-driver.ts';
import { createHostDriverRegistry } from '../registry.ts';

const IMAGE = 'gpu-test/busybox:latest';

async function insertHost(
  database: Database,
  name: string,
  settings: Record<string, unknown>,
): Promise<HostRecord> {
  const db = database.db;
  const [region] = await db
    .insert(regions)
    .values({ name: `r-${name}`, code: `r-${name}` })
    .returning();
  const [host] = await db
    .insert(hosts)
    .values({ regionId: region?.id as number, name, driver: 'simulated', settings })
    .returning();
  return host as HostRecord;
}

const healthy = {
  latencyMs: 0,
  failureRate: 0,
  images: [IMAGE],
  gpus: { model: 'RTX 4090', brand: 'NVIDIA', memoryGb: 24, count: 4 },
};

/**
 * A simulated container's files: under its data volume's mount path in the volume's row, else
 * on its own row (the system disk), as a container engine would keep them.
 */
function simulatedFiles(database: Database, hostId: number) {
  const db = database.db;
  const place = async (id: string, path: string) => {
    const [c] = await db.select().from(simulatedContainers).where(eq(simulatedContainers.id, id));
    if (!c) throw new Error(`no container ${id}`);
    const v = c.dataVolume;
    if (v && path.startsWith(`${v.mountPath}/`)) {
      const where = and(eq(simulatedVolumes.hostId, hostId), eq(simulatedVolumes.name, v.name));
      const [row] = await db.select().from(simulatedVolumes).where(where);
      return {
        files: row?.files ?? {},
        key: path.slice(v.mountPath.length),
        save: (files: Record<string, string>) => db.update(simulatedVolumes).set({ files }).where(where),
      };
    }
    const where = eq(simulatedContainers.id, id);
    return {
      files: c.files,
      key: path,
      save: (files: Record<string, string>) => db.update(simulatedContainers).set({ files }).where(where),
    };
  };
  return {
    async write(id: string, path: string, text: string) {
      const p = await place(id, path);
      await p.save({ ...p.files, [p.key]: text });
    },
    async read(id: string, path: string) {
      const p = await place(id, path);
      return p.files[p.key] ?? null;
    },
  };
}

hostDriverContract('simulated', async () => {
  const database = await createTestDatabase();
  const registry = createHostDriverRegistry({ db: database.db });
  // Eight GPUs: the suite hands out GPUs 0 to 7.
  const host = await insertHost(database, 'sim-contract', {
    ...healthy,
    gpus: { ...healthy.gpus, count: 8 },
  });
  const offline = await insertHost(database, 'sim-offline', { ...healthy, unreachable: true });
  const second = await insertHost(database, 'sim-contract-2', {
    ...healthy,
    gpus: { ...healthy.gpus, count: 8 },
  });
  return {
    driver: registry.forHost(host),
    otherHost: { driver: registry.forHost(second), files: simulatedFiles(database, second.id) },
    unreachable: registry.forHost(offline),
    image: IMAGE,
    gpuFigures: true,
    portBase: 40_000,
    files: simulatedFiles(database, host.id),
    registry: 'registry.sim:5000',
    createForeignContainer: async () => {
      const id = randomBytes(32).toString('hex');
      await database.db
        .insert(simulatedContainers)
        .values({ id, hostId: host.id, name: `foreign-${id.slice(0, 8)}`, image: IMAGE });
      return id;
    },
    removeForeignContainer: async (id) => {
      await database.db.delete(simulatedContainers).where(eq(simulatedContainers.id, id));
    },
    sshAccessOf: async (id) => {
      const [row] = await database.db
        .select()
        .from(simulatedContainers)
        .where(eq(simulatedContainers.id, id));
      if (!row?.sshAccess) throw new Error(`no SSH access recorded for ${id}`);
      return row.sshAccess;
    },
    close: () => database.close(),
  };
});

describe('simulated driver specifics', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const spec = (over: Partial<ContainerSpec> = {}): ContainerSpec => ({
    name: `s-${randomBytes(4).toString('hex')}`,
    image: IMAGE,
    instanceId: 7,
    gpuIndices: [0],
    ports: [{ containerPort: 22, hostPort: 41_000 + Math.floor(Math.random() * 1000) }],
    env: { ROOT_PASSWORD: 'secret-value' },
    ...over,
  });

  it('keeps containers in the database: a new registry (a restarted server) sees them', async () => {
    const host = await insertHost(database, 'sim-persist', healthy);
    const before = createHostDriverRegistry({ db: database.db }).forHost(host);
    const { containerId } = await before.create(spec());
    await before.start(containerId);
    const after = createHostDriverRegistry({ db: database.db }).forHost(host);
    expect((await after.inspect(containerId)).status).toBe('running');
    expect((await after.list()).map((c) => c.id)).toContain(containerId);
    const [row] = await database.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, containerId));
    expect(row?.envKeys).toEqual(['ROOT_PASSWORD']);
    expect(JSON.stringify(row)).not.toContain('secret-value');
  });

  it('waits the configured latency on every call', async () => {
    const host = await insertHost(database, 'sim-slow', { ...healthy, latencyMs: 250 });
    const waits: number[] = [];
    const driver = createHostDriverRegistry({
      db: database.db,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).forHost(host);
    const { containerId } = await driver.create(spec());
    await driver.inspect(containerId);
    await driver.probe();
    expect(waits).toEqual([250, 250, 250]);
  });

  it('injects failures at the configured rate', async () => {
    const host = await insertHost(database, 'sim-flaky', { ...healthy, failureRate: 0.5 });
    const rolls = [0.4, 0.6];
    const driver = createHostDriverRegistry({ db: database.db, random: () => rolls.shift() ?? 0.9 }).forHost(
      host,
    );
    await expect(driver.create(spec())).rejects.toBeInstanceOf(DriverFailureError);
    const { containerId } = await driver.create(spec());
    expect((await driver.inspect(containerId)).status).toBe('created');
  });

  it('only has the images and GPUs the host has', async () => {
    const host = await insertHost(database, 'sim-inventory', healthy);
    const driver = createHostDriverRegistry({ db: database.db }).forHost(host);
    await expect(driver.create(spec({ image: 'other:1' }))).rejects.toBeInstanceOf(ImageNotFoundError);
    await expect(driver.create(spec({ gpuIndices: [3, 4] }))).rejects.toBeInstanceOf(GpuUnavailableError);
  });

  it('reports the host_gpus inventory when the settings declare none (the demo hosts)', async () => {
    const host = await insertHost(database, 'sim-demo', { latencyMs: 0, failureRate: 0 });
    await database.db.insert(hostGpus).values(
      [0, 1, 2].map((index) => ({
        hostId: host.id,
        index,
        uuid: `GPU-demo-${index}`,
        model: 'A100 80GB',
        memoryGb: 80,
      })),
    );
    const probe = await createHostDriverRegistry({ db: database.db }).forHost(host).probe();
    expect(probe).toMatchObject({ reachable: true, gpuSource: 'simulated', nvidiaRuntime: true });
    expect(probe.gpus.map((g) => g.model)).toEqual(['A100 80GB', 'A100 80GB', 'A100 80GB']);
  });
});
