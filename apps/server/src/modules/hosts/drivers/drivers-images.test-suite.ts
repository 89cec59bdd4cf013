import { expect, it } from 'vitest';
import { ImageNotFoundError } from './driver-errors.ts';
import type { DriverHarness } from './drivers.test-helpers.ts';
import type { ContainerSpec, CreateResult } from './host-driver.ts';
import { leakedEnv, PLATFORM_ENV_KEYS, userImageRefOf } from './images.ts';

const SECRETS = {
  ROOT_PASSWORD: 'image-secret-pass',
  JUPYTER_TOKEN: 'image-secret-token',
  SSH_AUTHORIZED_KEYS: 'ssh-ed25519 AAAAimagesecret user@x',
  SSH_PASSWORD_AUTH: 'no',
};

/**
 * Users' saved images (issue 30, drivers/images.ts), inside `hostDriverContract`: a commit of an
 * instance's container keeps its system disk and none of the platform's environment values; a
 * container made from it has the files; remove frees it; with a registry, push → gone here →
 * pull brings it back. Drivers without `capabilities.userImages` have none of the calls.
 */
export function userImageContract(ctx: {
  harness: () => DriverHarness;
  spec: (over?: Partial<ContainerSpec>) => ContainerSpec;
  create: (spec: ContainerSpec) => Promise<CreateResult>;
  next: () => number;
}) {
  const ops = () => {
    const d = ctx.harness().driver;
    const { commitImage, inspectImage, pushImage, pullImage, removeImage, unpublishImage } = d;
    if (!commitImage || !inspectImage || !pushImage || !pullImage || !removeImage || !unpublishImage)
      throw new Error(`${d.kind} has capabilities.userImages but not every user image call`);
    return { commitImage, inspectImage, pushImage, pullImage, removeImage, unpublishImage };
  };
  /** A stopped container with a file on its system disk and the platform's secrets in its env. */
  const saved = async (text: string) => {
    const h = ctx.harness();
    const files = h.files;
    if (!files) throw new Error('a driver with user images gives the suite its files');
    const made = await ctx.create(ctx.spec({ env: { ...SECRETS } }));
    await h.driver.start(made.containerId);
    await files.write(made.containerId, '/opt/saved.txt', text);
    await h.driver.stop(made.containerId);
    return made.containerId;
  };

  it('has no user image calls where its kind cannot save images', () => {
    const d = ctx.harness().driver;
    if (d.capabilities.userImages) return;
    expect([d.commitImage, d.pushImage, d.pullImage, d.removeImage]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('commits a container into an image without the platform env values; a container made from it has its files; remove frees it', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.userImages) return;
    const o = ops();
    const id = await saved('from-the-system-disk');
    const ref = userImageRefOf(42, 800_000 + ctx.next());
    const info = await o.commitImage(id, ref);
    expect(info.ref).toBe(ref);
    expect(info.sizeBytes).toBeGreaterThan(0);
    expect(leakedEnv(info.env)).toEqual([]);
    for (const secret of Object.values(SECRETS).filter((v) => v !== 'no'))
      expect(info.env.join('\n')).not.toContain(secret);
    for (const key of PLATFORM_ENV_KEYS)
      expect(info.env.filter((e) => e.startsWith(`${key}=`))).toEqual([`${key}=`]);
    expect(await o.inspectImage(ref)).toEqual(info);

    const again = await ctx.create(ctx.spec({ image: ref }));
    const state = await h.driver.inspect(again.containerId);
    expect(state.image).toBe(ref);
    await h.driver.start(again.containerId);
    expect(await h.files?.read(again.containerId, '/opt/saved.txt')).toBe('from-the-system-disk');

    await h.driver.remove(again.containerId);
    await o.removeImage(ref);
    expect(await o.inspectImage(ref)).toBeNull();
    await o.removeImage(ref); // already gone: not an error
    await expect(h.driver.create(ctx.spec({ image: ref }))).rejects.toBeInstanceOf(ImageNotFoundError);
  });

  it('pushes an image to the registry and pulls it back onto a host without it', async () => {
    const h = ctx.harness();
    if (!h.driver.capabilities.userImages) return;
    if (!h.registry)
      throw new Error(
        `a driver with user images gives the suite a registry: ${h.registryUnavailable ?? 'none given'}`,
      );
    const o = ops();
    const id = await saved('through-the-registry');
    const ref = userImageRefOf(42, 800_000 + ctx.next(), h.registry);
    await o.commitImage(id, ref);
    const seen: number[] = [];
    await o.pushImage(ref, (f) => seen.push(f));
    expect(seen.every((f) => f >= 0 && f <= 1)).toBe(true);
    await o.removeImage(ref);
    expect(await o.inspectImage(ref)).toBeNull();

    await o.pullImage(ref);
    const pulled = await o.inspectImage(ref);
    expect(pulled?.ref).toBe(ref);
    expect(leakedEnv(pulled?.env ?? [])).toEqual([]);
    const made = await ctx.create(ctx.spec({ image: ref }));
    await h.driver.start(made.containerId);
    expect(await h.files?.read(made.containerId, '/opt/saved.txt')).toBe('through-the-registry');
    await h.driver.remove(made.containerId);

    await o.removeImage(ref);
    await o.unpublishImage(ref);
    await o.unpublishImage(ref); // already gone: not an error
    await expect(o.pullImage(ref)).rejects.toThrow();
  });
}
