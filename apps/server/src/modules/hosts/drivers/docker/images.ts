import type Docker from 'dockerode';
import { DriverFailureError, ImageNotFoundError } from '../driver-errors.ts';
import { committedEnv, type ImageInfo, type UserImageOps } from '../images.ts';
import { deleteFromRegistry } from './registry-api.ts';

type Call = <T>(
  ctx: { op: string; containerId?: string; image?: string },
  fn: () => Promise<T>,
) => Promise<T>;

const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;
/** Label keys the platform puts on its containers: a committed image must not hand them on. */
const PLATFORM_LABEL = /^io\.gpu-platform\./;

/** `repo:tag` split at the last colon after the last slash (a registry may carry a port). */
const splitRef = (ref: string) => {
  const at = ref.lastIndexOf(':');
  return at > ref.lastIndexOf('/')
    ? { repo: ref.slice(0, at), tag: ref.slice(at + 1) }
    : { repo: ref, tag: 'latest' };
};

/**
 * Waits for a push or pull stream to end; an `error` event in it is a failure (the engine
 * answers 200 and reports registry errors inside the stream). `onProgress` gets 0..1 from the
 * layers' byte counts as they come.
 */
function follow(docker: Docker, stream: NodeJS.ReadableStream, onProgress?: (fraction: number) => void) {
  const layers = new Map<string, { current: number; total: number }>();
  return new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, events: { error?: string }[]) => {
        const failed = err?.message ?? events.find((e) => e.error)?.error;
        if (failed) reject(new DriverFailureError(failed, '镜像仓库传输失败'));
        else resolve();
      },
      (e: { id?: string; progressDetail?: { current?: number; total?: number } }) => {
        if (!onProgress || !e.id || !e.progressDetail?.total) return;
        layers.set(e.id, { current: e.progressDetail.current ?? 0, total: e.progressDetail.total });
        let done = 0;
        let total = 0;
        for (const l of layers.values()) {
          done += Math.min(l.current, l.total);
          total += l.total;
        }
        if (total > 0) onProgress(done / total);
      },
    );
  });
}

/**
 * User images on a docker host (images.ts): commit a container with the platform's environment
 * values and labels dropped, inspect, push to and pull from the registry named in the reference,
 * remove. Recreate's temporary commits (recreate.ts) are another thing and stay there.
 */
export function dockerImages(docker: Docker, call: Call): UserImageOps {
  const inspectImage = async (ref: string): Promise<ImageInfo | null> =>
    call({ op: 'image inspect', image: ref }, async () => {
      try {
        const i = await docker.getImage(ref).inspect();
        return { ref, sizeBytes: i.Size, env: i.Config?.Env ?? [] };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    });

  return {
    inspectImage,

    async commitImage(containerId: string, ref: string): Promise<ImageInfo> {
      const c = docker.getContainer(containerId);
      const state = await call({ op: 'inspect', containerId }, () => c.inspect());
      const labels = Object.fromEntries(
        Object.entries(state.Config.Labels ?? {}).filter(([k]) => !PLATFORM_LABEL.test(k)),
      );
      const { repo, tag } = splitRef(ref);
      // dockerode sends `_query` as the query string and `_body` as the config the commit takes.
      await call({ op: 'commit', containerId }, () =>
        c.commit({
          _query: { container: containerId, repo, tag, pause: false, comment: 'gpu-platform user image' },
          _body: { Env: committedEnv(state.Config.Env ?? []), Labels: labels },
        }),
      );
      const info = await inspectImage(ref);
      if (!info) throw new ImageNotFoundError(ref, 'commit left no image');
      return info;
    },

    async pushImage(ref: string, onProgress?: (fraction: number) => void) {
      await call({ op: 'image push', image: ref }, async () => {
        const { tag } = splitRef(ref);
        const stream = await docker.getImage(ref).push({ tag });
        await follow(docker, stream, onProgress);
      });
    },

    async pullImage(ref: string, onProgress?: (fraction: number) => void) {
      await call({ op: 'image pull', image: ref }, async () => {
        const stream = await docker.pull(ref);
        await follow(docker, stream, onProgress);
      });
    },

    /**
     * Forced: the tag goes even while stopped containers were made from it (their layers stay
     * until they go). Gone is fine, and so is one a running container uses (409: the engine keeps
     * it; nobody can name it any more once the user's image row is gone).
     */
    async removeImage(ref: string) {
      await call({ op: 'image remove', image: ref }, async () => {
        try {
          await docker.getImage(ref).remove({ force: true });
        } catch (err) {
          const code = statusOf(err);
          if (code !== 404 && code !== 409) throw err;
        }
      });
    },

    unpublishImage: (ref: string) => deleteFromRegistry(ref),
  };
}
