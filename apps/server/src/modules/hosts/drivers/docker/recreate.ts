import type Docker from 'dockerode';
import type { ContainerSpec, CreateResult } from '../host-driver.ts';
import { COMMIT_REPOSITORY, isCommitImage, type RecreateOptions, replacedNameOf } from '../volumes.ts';

export type Call = <T>(
  ctx: { op: string; containerId?: string; image?: string },
  fn: () => Promise<T>,
) => Promise<T>;

const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;

/**
 * Removes an image a recreate committed, once no container uses it: the engine refuses (409)
 * while one does, and that is fine (the next recreate or the release tries again).
 */
export async function dropCommitImage(docker: Docker, call: Call, image: string) {
  if (!isCommitImage(image)) return;
  await call({ op: 'image remove', image }, async () => {
    try {
      await docker.getImage(image).remove();
    } catch (err) {
      const code = statusOf(err);
      if (code !== 404 && code !== 409) throw err;
    }
  });
}

/**
 * Commits container `id` to an image of ours (COMMIT_REPOSITORY, removed with its last
 * container) and answers its name. `changes` are Dockerfile instructions for the image's config
 * (a clone blanks the source's secrets with them).
 */
export async function commitContainer(
  docker: Docker,
  call: Call,
  id: string,
  tag: string,
  opts: { pause: boolean; changes?: string[] },
): Promise<string> {
  await call({ op: 'commit', containerId: id }, () =>
    docker.getContainer(id).commit({
      repo: COMMIT_REPOSITORY,
      tag,
      pause: opts.pause,
      ...(opts.changes?.length ? { changes: opts.changes } : {}),
    }),
  );
  return `${COMMIT_REPOSITORY}:${tag}`;
}

/**
 * Replaces container `id` by one made from `spec` (docker): stop it; with `keepSystemDisk`
 * commit it to a temporary image and make the new container from that; move the old one
 * aside under another name so the new one takes the instance's name; make the new one (same
 * network, same data volume); remove the old one, and its image when it was a commit of ours.
 * A failed create gives the old container its name back: nothing is lost.
 */
export async function recreateDocker(
  docker: Docker,
  call: Call,
  ops: {
    create: (spec: ContainerSpec) => Promise<CreateResult>;
    stop: (id: string) => Promise<void>;
    remove: (id: string) => Promise<void>;
  },
  id: string,
  spec: ContainerSpec,
  opts: RecreateOptions,
): Promise<CreateResult> {
  const ctx = { op: 'recreate', containerId: id };
  const old = docker.getContainer(id);
  const before = await call(ctx, () => old.inspect());
  await ops.stop(id);
  const at = Date.now();
  const image = opts.keepSystemDisk
    ? await commitContainer(docker, call, id, `${spec.name}-${at.toString(36)}`, { pause: false })
    : spec.image;
  const name = before.Name.replace(/^\//, '');
  await call(ctx, () => old.rename({ name: replacedNameOf(name, at) }));
  let made: CreateResult;
  try {
    made = await ops.create({ ...spec, image });
  } catch (err) {
    await old.rename({ name }).catch(() => undefined);
    if (image !== spec.image) await dropCommitImage(docker, call, image).catch(() => undefined);
    throw err;
  }
  await ops.remove(id);
  await dropCommitImage(docker, call, before.Config.Image);
  return made;
}
