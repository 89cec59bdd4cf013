import { expect, it } from 'vitest';
import { capabilitiesOf } from './capabilities.ts';
import type { DriverHarness, DriverTraits } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult, InstanceContainerInput } from './host-driver.ts';
import { containerNameOf } from './instance-spec.ts';

/** Two public keys as users paste them (a comment with spaces and shell characters included). */
const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOUul4SYdO09vlQji4S/bOorY+DTHV7qdrtpyt8LWGum a@laptop';
const KEY_B =
  'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uThTiOaN3Fv3hLzJjVqAVKyclJyXpcrwqiiuOm7uPY= $(reboot) "b" `id`';

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
      ssh: { authorizedKeys: [KEY_A, KEY_B], passwordAuth: false },
    };
    const spec = await h.driver.containerSpec(input);
    expect(spec).toMatchObject({
      name: containerNameOf(input.instanceId),
      image: h.image,
      instanceId: input.instanceId,
      userId: 42,
      gpuIndices: [0, 1],
      env: {
        ROOT_PASSWORD: 'contract-pass',
        JUPYTER_TOKEN: 'contract-token',
        SSH_AUTHORIZED_KEYS: `${KEY_A}\n${KEY_B}`,
        SSH_PASSWORD_AUTH: 'no',
      },
    });
    expect(spec.ports.map((p) => p.containerPort)).toEqual([22, 8888]);
    if (!traits.providerPicksPorts) expect(spec.ports.map((p) => p.hostPort)).toEqual(input.ports);
    const { containerId } = await create(h.command ? { ...spec, command: h.command } : spec);
    const state = await h.driver.inspect(containerId);
    expect(state).toMatchObject({ name: spec.name, instanceId: input.instanceId, userId: 42 });
    await h.driver.remove(containerId);
  });

  it("binds the user's extra ports after SSH and JupyterLab, each on its allocated host port", async () => {
    const h = ctx.harness();
    const seq = ctx.next();
    const extra = ctx.next(); // a second pair of host ports for the two extra ones
    const extraPorts = [
      { containerPort: 6006, hostPort: h.portBase + extra * 2 },
      { containerPort: 7860, hostPort: h.portBase + extra * 2 + 1 },
    ];
    const spec = await h.driver.containerSpec({
      instanceId: 900_000 + seq,
      userId: 42,
      image: h.image,
      gpuIndices: [0],
      ports: [h.portBase + seq * 2, h.portBase + seq * 2 + 1],
      extraPorts,
      sku: { cpuPerGpu: 1, memoryPerGpuGb: 1, systemDiskGb: 10, dataDiskGb: 0 },
      rootPassword: 'contract-pass',
      jupyterToken: 'contract-token',
    });
    expect(spec.ports.map((p) => p.containerPort)).toEqual([22, 8888, 6006, 7860]);
    const { containerId } = await create(h.command ? { ...spec, command: h.command } : spec);
    await h.driver.start(containerId);
    const bound = (await h.driver.inspect(containerId)).ports;
    expect(bound.map((p) => p.containerPort).sort()).toEqual([22, 6006, 7860, 8888]);
    if (traits.providerPicksPorts) {
      for (const p of bound) expect(p.hostPort).toBeGreaterThan(0);
    } else {
      for (const want of extraPorts)
        expect(bound.find((p) => p.containerPort === want.containerPort)?.hostPort).toBe(want.hostPort);
    }
    await h.driver.remove(containerId);
  });

  it("writes the owner's SSH keys and password switch into a running container, again after a restart", async () => {
    const h = ctx.harness();
    if (!h.driver.installSshAccess) {
      // A provider's machine (vast.ai) gets them only from the create's environment (above).
      expect(h.sshAccessOf).toBeUndefined();
      return;
    }
    const seq = ctx.next();
    const spec = await h.driver.containerSpec({
      instanceId: 900_000 + seq,
      userId: 42,
      image: h.image,
      gpuIndices: [0],
      ports: [h.portBase + seq * 2, h.portBase + seq * 2 + 1],
      sku: { cpuPerGpu: 1, memoryPerGpuGb: 1, systemDiskGb: 10, dataDiskGb: 0 },
      rootPassword: 'contract-pass',
      jupyterToken: 'contract-token',
      ssh: { authorizedKeys: [KEY_A], passwordAuth: true },
    });
    const { containerId } = await create(h.command ? { ...spec, command: h.command } : spec);
    await h.driver.start(containerId);
    await h.driver.installSshAccess(containerId, { authorizedKeys: [KEY_A, KEY_B], passwordAuth: false });
    const first = await h.sshAccessOf?.(containerId);
    expect(first).toMatchObject({ authorizedKeys: [KEY_A, KEY_B], passwordAuth: false });
    if (first?.fileMode !== undefined) expect(first.fileMode).toBe('600');
    // Powered off and on with one key removed and passwords back on: the file is rewritten whole.
    await h.driver.stop(containerId);
    await h.driver.start(containerId);
    await h.driver.installSshAccess(containerId, { authorizedKeys: [KEY_B], passwordAuth: true });
    expect(await h.sshAccessOf?.(containerId)).toMatchObject({ authorizedKeys: [KEY_B], passwordAuth: true });
    await h.driver.installSshAccess(containerId, { authorizedKeys: [], passwordAuth: true });
    expect(await h.sshAccessOf?.(containerId)).toMatchObject({ authorizedKeys: [] });
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
