import type { Image, ImageMap } from '@gpu/shared/images';

/**
 * The image cascader of SPEC.md §4: framework → version → Python → CUDA/CANN/MUSA, then
 * confirm. Choosing an earlier level resets the later ones; confirm closes the panel and sets
 * the image. Closing without confirming keeps the image chosen before.
 */
export interface CascaderState {
  open: boolean;
  framework: string | null;
  version: string | null;
  python: string | null;
  /** The image picked at the last level, not yet confirmed. */
  pending: Image | null;
  /** The confirmed image: what the order uses. */
  selected: Image | null;
}

export type CascaderAction =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'framework'; value: string }
  | { type: 'version'; value: string }
  | { type: 'python'; value: string }
  | { type: 'accelerator'; image: Image }
  | { type: 'confirm' }
  | { type: 'clear' };

export const INITIAL_CASCADER: CascaderState = {
  open: false,
  framework: null,
  version: null,
  python: null,
  pending: null,
  selected: null,
};

/** The version level groups base images by OS (the server's imageMap does the same). */
export const versionKeyOf = (image: Image) => image.frameworkVersion || image.osInfo;

/** The path of the confirmed image, so reopening the panel shows it. */
function pathOf(image: Image | null) {
  if (!image) return { framework: null, version: null, python: null, pending: null };
  return {
    framework: image.frameworkType,
    version: versionKeyOf(image),
    python: image.pythonVersion,
    pending: image,
  };
}

export function cascaderReducer(state: CascaderState, action: CascaderAction): CascaderState {
  switch (action.type) {
    case 'open':
      return { ...state, open: true, ...pathOf(state.selected) };
    case 'close':
      return { ...state, open: false, ...pathOf(state.selected) };
    case 'framework':
      if (state.framework === action.value) return state;
      return { ...state, framework: action.value, version: null, python: null, pending: null };
    case 'version':
      if (!state.framework || state.version === action.value) return state;
      return { ...state, version: action.value, python: null, pending: null };
    case 'python':
      if (!state.version || state.python === action.value) return state;
      return { ...state, python: action.value, pending: null };
    case 'accelerator':
      if (!state.python) return state;
      return { ...state, pending: action.image };
    case 'confirm':
      if (!state.pending) return state;
      return { ...state, open: false, selected: state.pending };
    case 'clear':
      return { ...INITIAL_CASCADER, open: state.open };
  }
}

/** Keys of a level in the server's order. */
export const frameworkOptions = (map: ImageMap) => Object.keys(map);
export const versionOptions = (map: ImageMap, framework: string | null) =>
  framework ? Object.keys(map[framework] ?? {}) : [];
export const pythonOptions = (map: ImageMap, framework: string | null, version: string | null) =>
  framework && version ? Object.keys(map[framework]?.[version] ?? {}) : [];
export const acceleratorOptions = (
  map: ImageMap,
  framework: string | null,
  version: string | null,
  python: string | null,
): Image[] => (framework && version && python ? (map[framework]?.[version]?.[python] ?? []) : []);

/** The last level's label: CUDA, CANN or MUSA and its version. */
export function acceleratorLabel(image: Image): string {
  if (image.cudaVersion) return `CUDA ${image.cudaVersion}`;
  if (image.cannVersion) return `CANN ${image.cannVersion}`;
  if (image.musaVersion) return `MUSA ${image.musaVersion}`;
  return image.osInfo || image.imageName;
}
