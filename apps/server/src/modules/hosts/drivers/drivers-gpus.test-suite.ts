import { expect, it } from 'vitest';
import type { DriverHarness } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult } from './host-driver.ts';
import { DATA_MOUNT_PATH } from './volumes.ts';

/** What a container's processes see as their GPUs (NVIDIA_VISIBLE_DEVICES), and what it asked for. */
export async function gpusSeen(h: DriverHarness, id: string) {
  const seen = h.visibleDevicesOf
    ? await h.visibleDevicesOf(id)
    : (await h.driver.inspect(id)).visibleDevices;
  return { seen, request: (await h.nvidiaRequestOf?.(id)) ?? null };
}

/**
 * The GPU handover (issue 30), inside `hostDriverContract`: a container sees exactly the GPUs
 * it was made on; a recreate onto other GPUs (power on on other GPUs) sees the new ones; a
 * recreate without GPUs (no-GPU mode) asks for none and sees none. On engines that take NVIDIA
 * device requests (docker with the NVIDIA hook) the request and the hook's input say the same.
 */
export function gpuHandoverContract(ctx: {
  harness: () => DriverHarness;
  spec: (over?: Partial<ContainerSpec>) => ContainerSpec;
  create: (spec: ContainerSpec) => Promise<CreateResult>;
  made: string[];
}) {
  it('hands each container its GPUs: after create, on other GPUs, and none in no-GPU mode', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.recreate) return;
    const base = ctx.spec({ gpuIndices: [3, 5] });
    const s = { ...base, dataVolume: { name: `${base.name}-data`, mountPath: DATA_MOUNT_PATH } };

    const first = await ctx.create(s);
    await h.driver.start(first.containerId);
    expect((await h.driver.inspect(first.containerId)).gpuIndices).toEqual([3, 5]);
    const made = await gpusSeen(h, first.containerId);
    expect(made.seen).toBe('3,5');
    if (h.nvidiaRequestOf) expect(made.request).toEqual({ deviceIds: ['3', '5'], hookSaw: '3,5' });

    // Power on on other GPUs: the container is remade on them, system disk kept.
    const moved = await h.driver.recreate(
      first.containerId,
      { ...s, gpuIndices: [1, 6] },
      { keepSystemDisk: true },
    );
    ctx.made.push(moved.containerId);
    await h.driver.start(moved.containerId);
    expect((await h.driver.inspect(moved.containerId)).gpuIndices).toEqual([1, 6]);
    const other = await gpusSeen(h, moved.containerId);
    expect(other.seen).toBe('1,6');
    if (h.nvidiaRequestOf) expect(other.request).toEqual({ deviceIds: ['1', '6'], hookSaw: '1,6' });

    // No-GPU mode: no device request, and the container sees no GPU.
    await h.driver.stop(moved.containerId);
    const none = await h.driver.recreate(
      moved.containerId,
      { ...s, gpuIndices: [] },
      { keepSystemDisk: true },
    );
    ctx.made.push(none.containerId);
    await h.driver.start(none.containerId);
    expect((await h.driver.inspect(none.containerId)).gpuIndices).toEqual([]);
    const noGpu = await gpusSeen(h, none.containerId);
    expect(noGpu.seen).toBe('void');
    if (h.nvidiaRequestOf) expect(noGpu.request).toEqual({ deviceIds: null, hookSaw: null });

    await h.driver.remove(none.containerId);
    await h.driver.removeVolume?.(s.dataVolume.name);
  });
}
