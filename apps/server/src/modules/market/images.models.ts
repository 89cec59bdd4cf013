import type { Image, ImageMap } from '@gpu/shared';

/** The version level of the cascader: the framework's version, or the OS for base images. */
export const versionKey = (i: Image) => i.frameworkVersion || i.osInfo;

/** framework → version → Python → images (whose CUDA/CANN/MUSA is the last choice), SPEC.md §4. */
export function groupImages(list: Image[]): ImageMap {
  const map: ImageMap = {};
  for (const i of list) {
    const byVersion = map[i.frameworkType] ?? {};
    map[i.frameworkType] = byVersion;
    const byPython = byVersion[versionKey(i)] ?? {};
    byVersion[versionKey(i)] = byPython;
    const images = byPython[i.pythonVersion] ?? [];
    byPython[i.pythonVersion] = images;
    images.push(i);
  }
  return map;
}
