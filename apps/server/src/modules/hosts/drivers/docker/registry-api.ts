import { DriverFailureError } from '../driver-errors.ts';

const MANIFEST_TYPES = [
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
].join(', ');

/** `registry/name:tag` → its parts; null when the reference names no registry. */
export function registryPartsOf(ref: string) {
  const slash = ref.indexOf('/');
  if (slash < 0) return null;
  const registry = ref.slice(0, slash);
  if (!/[.:]/.test(registry) && registry !== 'localhost') return null;
  const rest = ref.slice(slash + 1);
  const colon = rest.lastIndexOf(':');
  return colon > rest.lastIndexOf('/')
    ? { registry, name: rest.slice(0, colon), tag: rest.slice(colon + 1) }
    : { registry, name: rest, tag: 'latest' };
}

/** Plain HTTP for a registry on this machine (as dockerd allows 127.0.0.0/8), HTTPS elsewhere. */
const baseOf = (registry: string) =>
  /^(localhost|127\.\d+\.\d+\.\d+)(:\d+)?$/.test(registry) ? `http://${registry}` : `https://${registry}`;

/**
 * Deletes an image from its registry (Registry HTTP API v2): the tag's manifest digest, then
 * the manifest. The engine API has no such call. Gone is fine; a registry that does not allow
 * deletes (405) is a failure the admin must fix (`storage.delete.enabled`).
 */
export async function deleteFromRegistry(ref: string, fetchFn: typeof fetch = fetch) {
  const parts = registryPartsOf(ref);
  if (!parts) return;
  const url = `${baseOf(parts.registry)}/v2/${parts.name}/manifests`;
  const fail = (why: string) =>
    new DriverFailureError(`registry delete ${ref}: ${why}`, '从镜像仓库删除镜像失败');
  let head: Response;
  try {
    head = await fetchFn(`${url}/${parts.tag}`, { method: 'HEAD', headers: { Accept: MANIFEST_TYPES } });
  } catch (err) {
    throw fail((err as Error).message);
  }
  if (head.status === 404) return;
  const digest = head.headers.get('docker-content-digest');
  if (!head.ok || !digest) throw fail(`HEAD ${head.status}`);
  const del = await fetchFn(`${url}/${digest}`, { method: 'DELETE' }).catch((err: Error) => {
    throw fail(err.message);
  });
  if (del.status !== 202 && del.status !== 200 && del.status !== 404) throw fail(`DELETE ${del.status}`);
}
