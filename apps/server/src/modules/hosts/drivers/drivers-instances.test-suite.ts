import { expect, it } from 'vitest';
import { capabilitiesOf } from './capabilities.ts';
import type { DriverHarness, DriverTraits } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult, InstanceContainerInput } from './host-driver.ts';
import { containerNameOf } from './instance-spec.ts';

/**
 * The part of the contract that instances rely on instead of asking which driver it is: the
 * capabilities of its kind, the container spec it makes for an instance, and its own SSH
 * address where its kind has one. Runs inside `hostDriverContract`, on its harness.
 */
export function instanceContainerContract(ctx: {
  harness: () => DriverHarness;
  traits: DriverTraits;
  /** The suite's create: the container is removed after the suite. */
  create: (spec: ContainerSpec) => Promise<CreateResult>;
  /** The suite's next sequence number (unique ids and host ports). */
  next: () => number;
}) {
  const { traits, create } = ctx;

  it('reports the capabilities of its kind', () => {
    const h = ctx.harness();
    expect(h.driver.capabilities).toEqual(capabilitiesOf(h.driver.kind));
  });

  it("makes an instance's container spec, and creates the container from it", async () => {
    const h = ctx.harness();
    const seq = ctx.next();
    const input: InstanceContainerInput = {
      instanceId: 900_000 + seq,
      userId: 42,
      image: h.image,
      gpuIndices: [0, 1],
      ports: [h.portBase + seq * 2, h.portBase + seq * 2 + 1],
      sku: { cpuPerGpu: 1, memoryPerGpuGb: 1, systemDiskGb: 10, dataDiskGb: 0 },
      rootPassword: 'contract-pass',
      jupyterToken: 'contract-token',
    };
    const spec = await h.driver.containerSpec(input);
    expect(spec).toMatchObject({
      name: containerNameOf(input.instanceId),
      image: h.image,
      instanceId: input.instanceId,
      userId: 42,
      gpuIndices: [0, 1],
      env: { ROOT_PASSWORD: 'contract-pass', JUPYTER_TOKEN: 'contract-token' },
    });
    expect(spec.ports.map((p) => p.containerPort)).toEqual([22, 8888]);
    if (!traits.providerPicksPorts) expect(spec.ports.map((p) => p.hostPort)).toEqual(input.ports);
    const { containerId } = await create(h.command ? { ...spec, command: h.command } : spec);
    const state = await h.driver.inspect(containerId);
    expect(state).toMatchObject({ name: spec.name, instanceId: input.instanceId, userId: 42 });
    await h.driver.remove(containerId);
  });

  it('reports its own SSH address once running exactly where its kind says it has one', async () => {
    const h = ctx.harness();
    const seq = ctx.next();
    const { containerId } = await create({
      name: `contract-ssh-${process.pid}-${Date.now().toString(36)}-${seq}`,
      image: h.image,
      instanceId: 900_000 + seq,
      userId: 42,
      gpuIndices: [0, 1],
      ports: [
        { containerPort: 22, hostPort: h.portBase + seq * 2, hostIp: '127.0.0.1' },
        { containerPort: 8888, hostPort: h.portBase + seq * 2 + 1, hostIp: '127.0.0.1' },
      ],
      diskGb: 10,
      env: { ROOT_PASSWORD: 'contract-pass' },
      ...(h.command ? { command: h.command } : {}),
      ...h.specExtras?.(),
    });
    await h.driver.start(containerId);
    const { sshAddress } = await h.driver.inspect(containerId);
    if (h.driver.capabilities.ownSshAddress) {
      expect(sshAddress?.host).toBeTruthy();
      expect(sshAddress?.port).toBeGreaterThan(0);
    } else {
      expect(sshAddress ?? null).toBeNull();
    }
    await h.driver.remove(containerId);
  });
}
