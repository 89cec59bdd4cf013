import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { isCloneSecretEnv } from '../clone.ts';
import { DriverFailureError } from '../driver-errors.ts';
import type { ContainerSpec, CreateResult } from '../host-driver.ts';
import { dataVolumeOf } from './create-request.ts';
import { type Call, commitContainer, dropCommitImage } from './recreate.ts';

/** Where the copying helper mounts the source's data volume (read-only) and the clone's. */
const FROM = '/clone-from';
const TO = '/clone-to';
/** How long the copy of a data volume may take (large datasets: minutes). */
const COPY_TIMEOUT_S = 6 * 3600;
const COPY_POLL_MS = 500;

/** The copying helper of the clone `name`: fixed, so a retried clone removes a leftover first. */
export const cloneCopierNameOf = (name: string) => `${name}-clone-copy`;

/**
 * A clone on a docker host (HostDriver.clone): commit the stopped source (its secrets blanked
 * in the image's environment: a commit keeps the container's environment, and the engine can
 * only override a variable, not drop it), make the clone's data volume, copy the source's
 * volume into it with a short-lived helper made from that commit (it has the source's `sh` and
 * `cp`, no network, only the capabilities `cp -a` needs), then create the clone's container from
 * the commit. A failure leaves the source as it was and drops the commit.
 */
export async function cloneDocker(
  docker: Docker,
  call: Call,
  ops: {
    ensureVolume: (spec: ContainerSpec) => Promise<void>;
    create: (spec: ContainerSpec) => Promise<CreateResult>;
    /** The clone's labels: a copier left by a crash is cleaned up with a clone that failed. */
    labels: (spec: ContainerSpec) => Record<string, string>;
  },
  sourceId: string,
  spec: ContainerSpec,
): Promise<CreateResult> {
  const source = await call({ op: 'inspect', containerId: sourceId }, () =>
    docker.getContainer(sourceId).inspect(),
  );
  if (source.State.Running)
    throw new DriverFailureError(`clone source ${sourceId} is running`, '源实例需先关机才能克隆');
  const secrets = [...new Set((source.Config.Env ?? []).map((e) => e.split('=')[0] ?? ''))].filter(
    isCloneSecretEnv,
  );
  const image = await commitContainer(docker, call, sourceId, `${spec.name}-${Date.now().toString(36)}`, {
    pause: false,
    changes: secrets.map((key) => `ENV ${key}=`),
  });
  try {
    const from = dataVolumeOf(source.Mounts);
    if (spec.dataVolume) {
      await ops.ensureVolume(spec);
      if (from)
        await copyVolume(
          docker,
          call,
          image,
          { from: from.name, to: spec.dataVolume.name },
          spec.name,
          ops.labels(spec),
        );
    }
    return await ops.create({ ...spec, image });
  } catch (err) {
    await dropCommitImage(docker, call, image).catch(() => undefined);
    throw err;
  }
}

async function copyVolume(
  docker: Docker,
  call: Call,
  image: string,
  { from, to }: { from: string; to: string },
  name: string,
  labels: Record<string, string>,
) {
  await runCopier(docker, call, {
    name: cloneCopierNameOf(name),
    image,
    labels,
    script: `cp -a ${FROM}/. ${TO}/`,
    mounts: [
      { Type: 'volume', Source: from, Target: FROM, ReadOnly: true },
      { Type: 'volume', Source: to, Target: TO },
    ],
    what: from,
  });
}

/**
 * Runs a short-lived copying helper made from `image` (the source's own system disk: it has `sh`
 * and `cp`), no network, only the capabilities `cp -a` needs; polled to its end, then removed
 * unless `keep` (a clone to another host commits it first). Answers its id.
 */
export async function runCopier(
  docker: Docker,
  call: Call,
  o: {
    name: string;
    image: string;
    labels: Record<string, string>;
    script: string;
    mounts: { Type: 'volume'; Source: string; Target: string; ReadOnly?: boolean }[];
    what: string;
    keep?: boolean;
  },
): Promise<string> {
  const removeHelper = () =>
    docker
      .getContainer(o.name)
      .remove({ force: true })
      .catch(() => undefined);
  await removeHelper();
  const ctx = { op: 'clone copy', image: o.image };
  const helper = await call(ctx, () =>
    docker.createContainer({
      name: o.name,
      Image: o.image,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [o.script],
      User: '0',
      Labels: o.labels,
      HostConfig: {
        NetworkMode: 'none',
        SecurityOpt: ['no-new-privileges'],
        CapDrop: ['ALL'],
        CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID'],
        Mounts: o.mounts,
      },
    }),
  );
  let done = false;
  try {
    await call(ctx, () => helper.start());
    // Polled, not `wait`ed: the client's idle timeout would cut a long wait for a large copy.
    const deadline = Date.now() + COPY_TIMEOUT_S * 1000;
    for (;;) {
      const state = (await call(ctx, () => helper.inspect())).State;
      if (!state.Running) {
        if (state.ExitCode !== 0)
          throw new DriverFailureError(`clone copy of ${o.what} exited ${state.ExitCode}`, '复制数据盘失败');
        done = true;
        return helper.id;
      }
      if (Date.now() > deadline)
        throw new DriverFailureError(`clone copy of ${o.what} timed out`, '复制数据盘超时');
      await sleep(COPY_POLL_MS);
    }
  } finally {
    if (!(done && o.keep)) await removeHelper();
  }
}
