/**
 * Users' private images (保存镜像, issue 30): a powered-off instance's system disk committed on
 * its host (`HostDriver.commitImage`), pushed to IMAGE_REGISTRY where one is set so every host
 * can pull it, removed when the user deletes it. Drivers with `capabilities.userImages` only.
 */

/** Where committed user images live on a host (and, prefixed by IMAGE_REGISTRY, in the registry). */
export const USER_IMAGE_REPOSITORY = 'gpu-platform/user-image';

/**
 * The image reference of one user image: the tag names owner and image row, so two saves never
 * share a reference and a retried commit (a job taken over) overwrites its own tag only.
 */
export function userImageRefOf(userId: number, imageId: number, registry?: string | null) {
  const repo = registry ? `${registry.replace(/\/+$/, '')}/${USER_IMAGE_REPOSITORY}` : USER_IMAGE_REPOSITORY;
  return `${repo}:u${userId}-i${imageId}`;
}

/**
 * Environment variables the platform puts into every instance container (instance-spec.ts,
 * create-request.ts): secrets and per-container settings. A commit must not carry their values
 * into an image other containers are made from; each new container gets its own again.
 */
export const PLATFORM_ENV_KEYS = [
  'ROOT_PASSWORD',
  'JUPYTER_TOKEN',
  'SSH_AUTHORIZED_KEYS',
  'SSH_PASSWORD_AUTH',
  'NVIDIA_VISIBLE_DEVICES',
] as const;

const PLATFORM_KEYS = new Set<string>(PLATFORM_ENV_KEYS);
const keyOf = (entry: string) => entry.split('=', 1)[0] ?? entry;

/**
 * The environment a committed image keeps: the container's minus the platform's variables, each
 * of those present with an empty value. Docker's commit merges the container's environment
 * back for every key the commit does not name, so naming them empty is the only way to drop
 * their values (an image's environment cannot unset a key).
 */
export function committedEnv(containerEnv: string[]): string[] {
  const kept = containerEnv.filter((e) => !PLATFORM_KEYS.has(keyOf(e)));
  return [...kept, ...PLATFORM_ENV_KEYS.map((k) => `${k}=`)];
}

/** Whether an image environment still holds a value of a platform variable (tests, checks). */
export const leakedEnv = (env: string[]) =>
  env.filter((e) => PLATFORM_KEYS.has(keyOf(e)) && e.length > keyOf(e).length + 1);

/** What a driver reports of an image on its host. */
export interface ImageInfo {
  ref: string;
  sizeBytes: number;
  /** Its environment, `KEY=value` entries. */
  env: string[];
}

/**
 * What a driver with `capabilities.userImages` does with user images (all on its own host; push
 * and pull go to the registry the reference names). `onProgress` gets 0..1 where it can be known.
 */
export interface UserImageOps {
  /** Commits a stopped container to `ref` (platform env values and labels dropped). */
  commitImage(containerId: string, ref: string): Promise<ImageInfo>;
  /** The image on this host, or null. */
  inspectImage(ref: string): Promise<ImageInfo | null>;
  pushImage(ref: string, onProgress?: (fraction: number) => void): Promise<void>;
  pullImage(ref: string, onProgress?: (fraction: number) => void): Promise<void>;
  /** Removes it from this host; one already gone is not an error. */
  removeImage(ref: string): Promise<void>;
  /** Removes it from the registry its reference names (IMAGE_REGISTRY); gone is not an error. */
  unpublishImage(ref: string): Promise<void>;
}

/** Whether an image reference is a user image (`userImageRefOf`), with or without a registry. */
export const isUserImageRef = (ref: string) =>
  new RegExp(`(^|/)${USER_IMAGE_REPOSITORY.replace('/', '\\/')}:u\\d+-i\\d+$`).test(ref);
