import { type HostDriver, isUserImageRef } from '../../hosts/index.ts';

/**
 * Before a container is made from a user image on a host that lacks it (the create allowed it
 * because the image was pushed to IMAGE_REGISTRY): pull it from there. Part of the create's job.
 */
export async function pullUserImageIfMissing(driver: HostDriver, image: string) {
  if (!isUserImageRef(image) || !driver.inspectImage || !driver.pullImage) return;
  if (await driver.inspectImage(image)) return;
  await driver.pullImage(image);
}
