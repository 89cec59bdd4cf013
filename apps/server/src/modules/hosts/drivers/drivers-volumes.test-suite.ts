import { expect, it } from 'vitest';
import { ContainerNotFoundError, isDriverError } from './driver-errors.ts';
import type { DriverHarness } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult } from './host-driver.ts';
import { DATA_MOUNT_PATH } from './volumes.ts';

/**
 * The data volume and recreate (issue 30), inside `hostDriverContract`: the volume is made with
 * the container and mounted at DATA_MOUNT_PATH; a recreate keeps it (and the system disk only
 * when committing); removing the container keeps it; `removeVolume` (the released instance)
 * removes it. Drivers without the capabilities refuse a recreate as NOT_SUPPORTED.
 */
export function dataVolumeContract(ctx: {
  harness: () => DriverHarness;
  spec: (over?: Partial<ContainerSpec>) => ContainerSpec;
  create: (spec: ContainerSpec) => Promise<CreateResult>;
  /** Containers the suite removes afterwards. */
  made: string[];
}) {
  it('refuses a recreate with NOT_SUPPORTED where its kind cannot recreate', async () => {
    const h = ctx.harness();
    if (h.driver.capabilities.recreate) return;
    const err = await h.driver
      .recreate('a'.repeat(64), ctx.spec(), { keepSystemDisk: false })
      .catch((e) => e);
    expect(isDriverError(err, 'NOT_SUPPORTED')).toBe(true);
    expect((err as Error).message).toMatch(/不支持/);
  });

  it('keeps the data volume across recreates, the system disk only when committing; the volume goes when removed', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.dataVolume || !h.driver.capabilities.recreate) return;
    const files = h.files;
    if (!files) throw new Error('a driver with data volumes gives the suite its files');
    const base = ctx.spec();
    const volume = { name: `${base.name}-data`, mountPath: DATA_MOUNT_PATH, sizeGb: 5 };
    const s = { ...base, dataVolume: volume };
    const volumes = async () => (await h.driver.listVolumes?.()) ?? [];

    const first = await ctx.create(s);
    await h.driver.start(first.containerId);
    expect((await h.driver.inspect(first.containerId)).dataVolume).toEqual({
      name: volume.name,
      mountPath: DATA_MOUNT_PATH,
    });
    expect((await volumes()).find((v) => v.name === volume.name)).toEqual({
      name: volume.name,
      instanceId: s.instanceId,
      userId: 42,
      sizeGb: 5,
    });
    await files.write(first.containerId, `${DATA_MOUNT_PATH}/keep.txt`, 'data-1');
    await files.write(first.containerId, '/opt/system.txt', 'system-1');

    // Recreate with a commit: both survive, the old container is gone, the name is the same.
    const second = await h.driver.recreate(first.containerId, s, { keepSystemDisk: true });
    ctx.made.push(second.containerId);
    expect(second.containerId).not.toBe(first.containerId);
    await expect(h.driver.inspect(first.containerId)).rejects.toBeInstanceOf(ContainerNotFoundError);
    const state = await h.driver.inspect(second.containerId);
    expect(state).toMatchObject({ name: s.name, instanceId: s.instanceId, status: 'created' });
    expect(state.dataVolume).toEqual({ name: volume.name, mountPath: DATA_MOUNT_PATH });
    await h.driver.start(second.containerId);
    expect(await files.read(second.containerId, `${DATA_MOUNT_PATH}/keep.txt`)).toBe('data-1');
    expect(await files.read(second.containerId, '/opt/system.txt')).toBe('system-1');

    // A reset (no commit): the system disk is new, the data volume is the same.
    await files.write(second.containerId, `${DATA_MOUNT_PATH}/keep.txt`, 'data-2');
    const third = await h.driver.recreate(second.containerId, s, { keepSystemDisk: false });
    ctx.made.push(third.containerId);
    await h.driver.start(third.containerId);
    expect(await files.read(third.containerId, `${DATA_MOUNT_PATH}/keep.txt`)).toBe('data-2');
    expect(await files.read(third.containerId, '/opt/system.txt')).toBeNull();
    expect((await h.driver.list()).filter((c) => c.instanceId === s.instanceId).map((c) => c.id)).toEqual([
      third.containerId,
    ]);

    // Removing the container keeps the volume; removing the volume (a released instance) does not.
    await h.driver.remove(third.containerId);
    expect((await volumes()).map((v) => v.name)).toContain(volume.name);
    await h.driver.removeVolume?.(volume.name);
    expect((await volumes()).map((v) => v.name)).not.toContain(volume.name);
    await h.driver.removeVolume?.(volume.name); // already gone: not an error
  });

  it('recreates onto no GPU (no-GPU mode) and back onto GPUs, keeping system disk and data', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.dataVolume || !h.driver.capabilities.recreate) return;
    const files = h.files;
    if (!files) throw new Error('a driver with data volumes gives the suite its files');
    const base = ctx.spec();
    const s = { ...base, dataVolume: { name: `${base.name}-data`, mountPath: DATA_MOUNT_PATH } };
    const first = await ctx.create(s);
    await h.driver.start(first.containerId);
    expect((await h.driver.inspect(first.containerId)).gpuIndices).toEqual([0, 1]);
    await files.write(first.containerId, `${DATA_MOUNT_PATH}/set.txt`, 'data');
    await files.write(first.containerId, '/opt/env.txt', 'env');

    // No-GPU mode: the container is remade with no GPU at all (docker: no device request).
    const bare = await h.driver.recreate(
      first.containerId,
      { ...s, gpuIndices: [] },
      { keepSystemDisk: true },
    );
    ctx.made.push(bare.containerId);
    await h.driver.start(bare.containerId);
    expect((await h.driver.inspect(bare.containerId)).gpuIndices).toEqual([]);
    expect(await files.read(bare.containerId, `${DATA_MOUNT_PATH}/set.txt`)).toBe('data');
    expect(await files.read(bare.containerId, '/opt/env.txt')).toBe('env');

    // A normal power on afterwards: back on GPUs, everything kept.
    await h.driver.stop(bare.containerId);
    const back = await h.driver.recreate(bare.containerId, s, { keepSystemDisk: true });
    ctx.made.push(back.containerId);
    await h.driver.start(back.containerId);
    expect((await h.driver.inspect(back.containerId)).gpuIndices).toEqual([0, 1]);
    expect(await files.read(back.containerId, '/opt/env.txt')).toBe('env');
    expect(await files.read(back.containerId, `${DATA_MOUNT_PATH}/set.txt`)).toBe('data');
    await h.driver.remove(back.containerId);
    await h.driver.removeVolume?.(s.dataVolume.name);
  });
}
