import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContainerConflictError,
  ContainerNotFoundError,
  HostDriverError,
  HostUnreachableError,
  ImageNotFoundError,
  PortInUseError,
} from './driver-errors.ts';
import type { DriverHarness, DriverTraits } from './drivers.test-helpers.ts';
import { cloneContract } from './drivers-clone.test-suite.ts';
import { gpuHandoverContract } from './drivers-gpus.test-suite.ts';
import { userImageContract } from './drivers-images.test-suite.ts';
import { instanceContainerContract } from './drivers-instances.test-suite.ts';
import { samplingContract } from './drivers-sampling.test-suite.ts';
import { dataVolumeContract } from './drivers-volumes.test-suite.ts';
import type { ContainerSpec } from './host-driver.ts';

/** The capabilities an instance keeps, pinned here so a change to the policy is a visible one. */
const KEPT_CAPABILITIES = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'KILL',
  'NET_BIND_SERVICE',
  'SETGID',
  'SETUID',
  'SYS_CHROOT',
];

let seq = 0;

/**
 * The contract every host driver passes (DESIGN §7): create → inspect → stop → start → remove,
 * list shows only the platform's containers, port bindings are honoured, errors are typed.
 */
export function hostDriverContract(
  name: string,
  setup: () => Promise<DriverHarness>,
  traits: DriverTraits = {},
) {
  describe(`host driver contract: ${name}`, () => {
    let h: DriverHarness;
    const made: string[] = [];
    const spec = (over: Partial<ContainerSpec> = {}): ContainerSpec => {
      seq += 1;
      return {
        name: `contract-${process.pid}-${Date.now().toString(36)}-${seq}`,
        image: h.image,
        instanceId: 900_000 + seq,
        userId: 42,
        gpuIndices: [0, 1],
        ports: [
          { containerPort: 22, hostPort: h.portBase + seq * 2, hostIp: '127.0.0.1' },
          { containerPort: 8888, hostPort: h.portBase + seq * 2 + 1, hostIp: '127.0.0.1' },
        ],
        cpus: 1,
        memoryGb: 1,
        diskGb: 10,
        env: { ROOT_PASSWORD: 'contract-pass' },
        ...(h.command ? { command: h.command } : {}),
        ...h.specExtras?.(),
        ...over,
      };
    };
    const create = async (s: ContainerSpec) => {
      const r = await h.driver.create(s);
      made.push(r.containerId);
      return r;
    };

    beforeAll(async () => {
      h = await setup();
    });
    afterAll(async () => {
      for (const id of made) await h?.driver.remove(id).catch(() => undefined);
      await h?.close();
    });

    it('probes the host: reachable, with its GPUs', async () => {
      const p = await h.driver.probe();
      expect(p.reachable).toBe(true);
      expect(p.gpus.length).toBeGreaterThanOrEqual(2);
      expect(p.gpus.map((g) => g.index)).toEqual([...p.gpus.keys()]);
      for (const g of p.gpus) expect(g.model.length).toBeGreaterThan(0);
    });

    it('runs the lifecycle create → running → stopped → running → removed', async () => {
      const s = spec();
      const { containerId, diskLimitEnforced } = await create(s);
      expect(containerId).toMatch(traits.idPattern ?? /^[0-9a-f]{64}$/);
      expect(typeof diskLimitEnforced).toBe('boolean');

      const created = await h.driver.inspect(containerId);
      expect(created).toMatchObject({ id: containerId, name: s.name, status: 'created', running: false });
      expect(created.instanceId).toBe(s.instanceId);
      expect(created.userId).toBe(42);
      expect(created.gpuIndices).toEqual([0, 1]);

      await h.driver.start(containerId);
      const running = await h.driver.inspect(containerId);
      expect(running.status).toBe('running');
      expect(running.running).toBe(true);
      expect(running.startedAt).not.toBeNull();

      await h.driver.start(containerId); // already running: not an error
      await h.driver.stop(containerId);
      const stopped = await h.driver.inspect(containerId);
      expect(stopped.status).toBe('exited');
      expect(stopped.running).toBe(false);
      if (!traits.noFinishedAt) expect(stopped.finishedAt).not.toBeNull();
      await h.driver.stop(containerId); // already stopped: not an error

      await h.driver.start(containerId);
      expect((await h.driver.inspect(containerId)).status).toBe('running');

      await h.driver.remove(containerId);
      await expect(h.driver.inspect(containerId)).rejects.toBeInstanceOf(ContainerNotFoundError);
      await expect(h.driver.remove(containerId)).rejects.toBeInstanceOf(ContainerNotFoundError);
    });

    if (!traits.providerIsolates)
      it('fences each container off: processes, memory, privileges, capabilities, its own network', async () => {
        const s = spec({ pidsLimit: 256, memoryGb: 2 });
        const { containerId } = await create(s);
        expect((await h.driver.inspect(containerId)).isolation).toEqual({
          pidsLimit: 256,
          memoryBytes: 2 * 1024 ** 3,
          noNewPrivileges: true,
          capDrop: ['ALL'],
          capAdd: KEPT_CAPABILITIES,
          networks: [s.name],
        });
        // Without a limit of its own a container still gets one.
        const other = spec({ memoryGb: undefined });
        const second = await create(other);
        expect((await h.driver.inspect(second.containerId)).isolation).toMatchObject({
          pidsLimit: 4096,
          memoryBytes: null,
          networks: [other.name],
        });
        const networks = async () => (await h.driver.listNetworks?.())?.map((n) => n.name) ?? [];
        if (h.driver.listNetworks) {
          const mine = (await h.driver.listNetworks()).find((n) => n.name === s.name);
          expect(mine).toMatchObject({ name: s.name, instanceId: s.instanceId, userId: 42 });
        }
        // Removing a container removes its network.
        await h.driver.remove(containerId);
        await h.driver.remove(second.containerId);
        expect(await networks()).not.toContain(s.name);
        expect(await networks()).not.toContain(other.name);
      });

    it('honours port bindings', async () => {
      const s = spec();
      const { containerId } = await create(s);
      await h.driver.start(containerId);
      const state = await h.driver.inspect(containerId);
      if (traits.providerPicksPorts) {
        expect(state.ports.map((p) => p.containerPort).sort()).toEqual(
          s.ports.map((p) => p.containerPort).sort(),
        );
        for (const p of state.ports) expect(p.hostPort).toBeGreaterThan(0);
      } else {
        expect(state.ports).toEqual(
          s.ports.map((p) => ({ containerPort: p.containerPort, hostPort: p.hostPort, hostIp: '127.0.0.1' })),
        );
      }
      if (h.canConnect) {
        const port = s.ports[0]?.hostPort as number;
        await expect.poll(() => h.canConnect?.(port), { timeout: 10_000, interval: 200 }).toBe(true);
      }
      await h.driver.remove(containerId);
    });

    // Where the provider picks host ports, no two instances can ask for the same one.
    if (!traits.providerPicksPorts)
      it('refuses a host port that a running container holds, with PortInUseError', async () => {
        const first = spec();
        const a = await create(first);
        await h.driver.start(a.containerId);
        const b = await create(spec({ ports: first.ports.slice(0, 1) }));
        const err = await h.driver.start(b.containerId).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PortInUseError);
        expect((err as PortInUseError).port).toBe(first.ports[0]?.hostPort);
        await h.driver.remove(b.containerId);
        await h.driver.remove(a.containerId);
      });

    it('lists only containers carrying the platform label', async () => {
      const s = spec();
      const ours = await create(s);
      const foreign = await h.createForeignContainer();
      try {
        const list = await h.driver.list();
        const ids = list.map((c) => c.id);
        expect(ids).toContain(ours.containerId);
        expect(ids).not.toContain(foreign);
        expect(list.find((c) => c.id === ours.containerId)).toMatchObject({
          name: s.name,
          instanceId: s.instanceId,
          userId: 42,
          status: 'created',
        });
      } finally {
        await h.removeForeignContainer(foreign);
        await h.driver.remove(ours.containerId);
      }
    });

    it('finds a container by its exact name, labelled with its instance (crash recovery)', async () => {
      const base = spec();
      const s = { ...base, name: `${base.name}-find` };
      const ours = await create(s);
      // A name that starts like ours must not be taken for it (engines match names loosely).
      const longer = await create(spec({ name: `${s.name}0` }));
      const foreign = await h.createForeignContainer();
      try {
        const found = await h.driver.findByName(s.name);
        expect(found).toMatchObject({ id: ours.containerId, name: s.name, instanceId: s.instanceId });
        expect((await h.driver.findByName(`${s.name}0`))?.id).toBe(longer.containerId);
        expect(await h.driver.findByName(`${s.name}-missing`)).toBeNull();
        expect(await h.driver.findByName(s.name.slice(0, -1))).toBeNull();
        await h.driver.remove(ours.containerId);
        expect(await h.driver.findByName(s.name)).toBeNull();
      } finally {
        await h.removeForeignContainer(foreign);
        await h.driver.remove(longer.containerId);
      }
    });

    it('answers with typed errors', async () => {
      const noImage = spec({ image: 'gpu-test/no-such-image:latest' });
      await expect(create(noImage)).rejects.toBeInstanceOf(ImageNotFoundError);
      // A create that fails leaves no network behind.
      const networks = async () => (await h.driver.listNetworks?.())?.map((n) => n.name) ?? [];
      expect(await networks()).not.toContain(noImage.name);
      const missing = 'f'.repeat(64);
      for (const op of ['inspect', 'start', 'stop', 'remove'] as const) {
        await expect(h.driver[op](missing)).rejects.toBeInstanceOf(ContainerNotFoundError);
      }
      const s = spec();
      const first = await create(s);
      await expect(create({ ...spec(), name: s.name })).rejects.toBeInstanceOf(ContainerConflictError);
      // The refused second create left the first container's network alone.
      if (!traits.providerIsolates) {
        await h.driver.start(first.containerId);
        expect((await h.driver.inspect(first.containerId)).isolation?.networks).toEqual([s.name]);
      }
      await h.driver.remove(first.containerId);
    });

    it('reports an unreachable host as such', async () => {
      const p = await h.unreachable.probe();
      expect(p.reachable).toBe(false);
      expect(p.error).toBeTruthy();
      await expect(h.unreachable.list()).rejects.toBeInstanceOf(HostUnreachableError);
      await expect(h.unreachable.findByName('gpu-inst-1')).rejects.toBeInstanceOf(HostUnreachableError);
      await expect(h.unreachable.create(spec())).rejects.toBeInstanceOf(HostUnreachableError);
      await expect(h.unreachable.inspect('a'.repeat(64))).rejects.toBeInstanceOf(HostDriverError);
    });

    instanceContainerContract({ harness: () => h, traits, create, next: () => ++seq });
    dataVolumeContract({ harness: () => h, spec, create, made });
    gpuHandoverContract({ harness: () => h, spec, create, made });
    cloneContract({ harness: () => h, spec, create, made });
    userImageContract({ harness: () => h, spec, create, next: () => ++seq });
    samplingContract({ harness: () => h, spec, create });
  });
}
