import { expect, it } from 'vitest';
import { cloneTransferRefsOf } from './clone.ts';
import { HostDriverError } from './driver-errors.ts';
import type { DriverHarness } from './drivers.test-helpers.ts';
import { gpusSeen } from './drivers-gpus.test-suite.ts';
import type { ContainerSpec, CreateResult } from './host-driver.ts';
import { DATA_MOUNT_PATH } from './volumes.ts';

const SOURCE_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIsourcekey source@contract';

const withVolume = (s: ContainerSpec) => ({
  ...s,
  dataVolume: { name: `${s.name}-data`, mountPath: DATA_MOUNT_PATH },
});

/**
 * Clone (issue 30), inside `hostDriverContract`: a new container from a stopped one's system
 * disk and a copy of its data volume, on its own GPUs, without the source's secrets; the source
 * is left as it was. Drivers without `capabilities.clone` have no `clone`.
 */
export function cloneContract(ctx: {
  harness: () => DriverHarness;
  spec: (over?: Partial<ContainerSpec>) => ContainerSpec;
  create: (spec: ContainerSpec) => Promise<CreateResult>;
  made: string[];
}) {
  /**
   * A started source with a data volume and secrets in its env, holding `data-<tag>` in its data
   * volume and `system-<tag>` on its system disk.
   */
  const startedSource = async (
    h: DriverHarness,
    files: NonNullable<DriverHarness['files']>,
    tag: string,
    over: Partial<ContainerSpec> = {},
  ) => {
    const source = withVolume(
      ctx.spec({
        ...over,
        env: {
          ROOT_PASSWORD: 'source-secret',
          JUPYTER_TOKEN: 'source-token',
          SSH_AUTHORIZED_KEYS: SOURCE_KEY,
        },
      }),
    );
    const src = await ctx.create(source);
    await h.driver.start(src.containerId);
    await files.write(src.containerId, `${DATA_MOUNT_PATH}/dataset.txt`, `data-${tag}`);
    await files.write(src.containerId, '/opt/env-setup.txt', `system-${tag}`);
    return { source, src };
  };

  it('clones a stopped container: system disk and data volume copied, own GPUs, no secrets carried, source unchanged', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.clone) {
      expect(h.driver.clone).toBeUndefined();
      return;
    }
    const files = h.files;
    const clone = h.driver.clone?.bind(h.driver);
    if (!files || !clone) throw new Error('a driver that clones has clone and gives the suite its files');
    const { source, src } = await startedSource(h, files, 'of-source', { gpuIndices: [3, 5] });

    const target = withVolume(ctx.spec({ gpuIndices: [2, 7], env: { ROOT_PASSWORD: 'clone-secret' } }));
    // A running source is refused: its disk and volume are not a consistent copy.
    await expect(clone(src.containerId, target)).rejects.toBeInstanceOf(HostDriverError);
    await h.driver.stop(src.containerId);

    const made = await clone(src.containerId, target);
    ctx.made.push(made.containerId);
    expect(made.containerId).not.toBe(src.containerId);
    const state = await h.driver.inspect(made.containerId);
    expect(state).toMatchObject({ name: target.name, instanceId: target.instanceId, status: 'created' });
    expect(state.dataVolume).toEqual({ name: target.dataVolume.name, mountPath: DATA_MOUNT_PATH });
    await h.driver.start(made.containerId);
    expect(await files.read(made.containerId, `${DATA_MOUNT_PATH}/dataset.txt`)).toBe('data-of-source');
    expect(await files.read(made.containerId, '/opt/env-setup.txt')).toBe('system-of-source');
    const gpus = await gpusSeen(h, made.containerId);
    expect(gpus.seen).toBe('2,7');
    if (h.nvidiaRequestOf) expect(gpus.request).toEqual({ deviceIds: ['2', '7'], hookSaw: '2,7' });
    const env = (await h.envOf?.(made.containerId)) ?? {};
    for (const value of Object.values(env)) {
      expect(value).not.toContain('source-secret');
      expect(value).not.toContain('source-token');
      expect(value).not.toContain(SOURCE_KEY);
    }
    if (h.envOf) expect(env.ROOT_PASSWORD).toBe('clone-secret');

    // The clone's disks are its own: writing there leaves the source's as they were.
    await files.write(made.containerId, `${DATA_MOUNT_PATH}/dataset.txt`, 'changed-in-clone');
    await files.write(made.containerId, '/opt/env-setup.txt', 'changed-in-clone');
    await h.driver.start(src.containerId);
    expect(await files.read(src.containerId, `${DATA_MOUNT_PATH}/dataset.txt`)).toBe('data-of-source');
    expect(await files.read(src.containerId, '/opt/env-setup.txt')).toBe('system-of-source');
    expect((await h.driver.inspect(src.containerId)).gpuIndices).toEqual([3, 5]);
    if (h.envOf) expect((await h.envOf(src.containerId)).ROOT_PASSWORD).toBe('source-secret');

    await h.driver.remove(made.containerId);
    await h.driver.remove(src.containerId);
    await h.driver.removeVolume?.(target.dataVolume.name);
    await h.driver.removeVolume?.(source.dataVolume.name);
  });

  it('clones to another host through the registry: system disk and data volume arrive, no secrets, nothing left behind', async () => {
    const h = ctx.harness();
    const { exportClone, importClone } = h.driver;
    if (!h.driver.capabilities.clone || !h.driver.capabilities.userImages) {
      expect(exportClone).toBeUndefined();
      return;
    }
    if (!h.registry || !h.otherHost)
      throw new Error(
        `a driver that clones gives the suite a registry and a second host: ${h.registryUnavailable ?? 'none given'}`,
      );
    const other = h.otherHost;
    const files = h.files;
    if (!files || !exportClone || !importClone || !other.driver.importClone || !other.driver.inspectImage)
      throw new Error('a driver that clones to other hosts has exportClone, importClone and inspectImage');
    const { source, src } = await startedSource(h, files, 'across-hosts');
    const target = withVolume(ctx.spec({ gpuIndices: [6], env: { ROOT_PASSWORD: 'clone-secret' } }));
    const refs = cloneTransferRefsOf(target.instanceId, h.registry);
    // A running source is refused, as for a clone on its own host.
    await expect(exportClone.call(h.driver, src.containerId, refs, target)).rejects.toBeInstanceOf(
      HostDriverError,
    );
    await h.driver.stop(src.containerId);

    const exported = await exportClone.call(h.driver, src.containerId, refs, target);
    expect(exported).toEqual({ data: true });
    // Pushed and gone from the source's host: only the registry holds the copy now.
    expect(await h.driver.inspectImage?.(refs.system)).toBeNull();
    expect(await h.driver.inspectImage?.(refs.data)).toBeNull();

    const made = await other.driver.importClone(refs, target, exported);
    // No copying helper stays behind on either host (both are the platform's, named after the clone).
    const helpers = async (d: typeof h.driver) =>
      (await d.list()).filter((c) => c.name.startsWith(`${target.name}-`)).map((c) => c.name);
    expect([...(await helpers(h.driver)), ...(await helpers(other.driver))]).toEqual([]);
    expect(await other.driver.inspectImage(refs.system)).toBeNull();
    expect(await other.driver.inspectImage(refs.data)).toBeNull();
    const state = await other.driver.inspect(made.containerId);
    expect(state).toMatchObject({ name: target.name, instanceId: target.instanceId });
    expect(state.dataVolume).toEqual({ name: target.dataVolume.name, mountPath: DATA_MOUNT_PATH });
    await other.driver.start(made.containerId);
    expect(await other.files.read(made.containerId, `${DATA_MOUNT_PATH}/dataset.txt`)).toBe(
      'data-across-hosts',
    );
    expect(await other.files.read(made.containerId, '/opt/env-setup.txt')).toBe('system-across-hosts');
    // The helper's copy area is no part of the clone's system disk.
    expect(await other.files.read(made.containerId, '/.gpu-platform-clone-data/dataset.txt')).toBeNull();
    const env = (await h.envOf?.(made.containerId)) ?? {};
    for (const value of Object.values(env)) {
      expect(value).not.toContain('source-secret');
      expect(value).not.toContain('source-token');
      expect(value).not.toContain(SOURCE_KEY);
    }
    if (h.envOf) expect(env.ROOT_PASSWORD).toBe('clone-secret');
    expect((await gpusSeen({ ...h, driver: other.driver }, made.containerId)).seen).toBe('6');

    await other.driver.unpublishImage?.(refs.system);
    await other.driver.unpublishImage?.(refs.data);
    await expect(other.driver.pullImage?.(refs.system)).rejects.toThrow();
    await other.driver.remove(made.containerId);
    await other.driver.removeVolume?.(target.dataVolume.name);
    await h.driver.remove(src.containerId);
    await h.driver.removeVolume?.(source.dataVolume.name);
  });
}
