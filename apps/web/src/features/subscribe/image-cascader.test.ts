import type { ImageMap } from '@gpu/shared/images';
import { describe, expect, it } from 'vitest';
import {
  acceleratorLabel,
  acceleratorOptions,
  type CascaderState,
  cascaderReducer,
  frameworkOptions,
  INITIAL_CASCADER,
  pythonOptions,
  versionOptions,
} from './image-cascader';
import { image } from './test-fixtures';

const pt251py312 = image({ frameworkVersion: '2.5.1', pythonVersion: '3.12', cudaVersion: '12.4' });
const pt251py312cu121 = image({ frameworkVersion: '2.5.1', pythonVersion: '3.12', cudaVersion: '12.1' });
const pt251py311 = image({ frameworkVersion: '2.5.1', pythonVersion: '3.11', cudaVersion: '12.4' });
const pt230 = image({ frameworkVersion: '2.3.0', pythonVersion: '3.11', cudaVersion: '12.1' });
const tf = image({ frameworkType: 'tensorflow', frameworkVersion: '2.16.1', pythonVersion: '3.11' });
const base = image({
  frameworkType: 'base',
  frameworkVersion: '',
  osInfo: 'Ubuntu 22.04',
  pythonVersion: '3.10',
});

const MAP: ImageMap = {
  pytorch: {
    '2.5.1': { '3.12': [pt251py312, pt251py312cu121], '3.11': [pt251py311] },
    '2.3.0': { '3.11': [pt230] },
  },
  tensorflow: { '2.16.1': { '3.11': [tf] } },
  base: { 'Ubuntu 22.04': { '3.10': [base] } },
};

const run = (...actions: Parameters<typeof cascaderReducer>[1][]) =>
  actions.reduce<CascaderState>(cascaderReducer, INITIAL_CASCADER);

/** Open and choose framework → version → Python → the image. */
const chosen = run(
  { type: 'open' },
  { type: 'framework', value: 'pytorch' },
  { type: 'version', value: '2.5.1' },
  { type: 'python', value: '3.12' },
  { type: 'accelerator', image: pt251py312 },
);

describe('image cascader reducer (SPEC.md §4)', () => {
  it('walks framework → version → Python → CUDA and sets the image on confirm, closing the panel', () => {
    expect(chosen).toMatchObject({ open: true, framework: 'pytorch', version: '2.5.1', python: '3.12' });
    expect(chosen.pending).toBe(pt251py312);
    expect(chosen.selected).toBeNull();
    const confirmed = cascaderReducer(chosen, { type: 'confirm' });
    expect(confirmed.open).toBe(false);
    expect(confirmed.selected).toBe(pt251py312);
  });

  it('resets every later level when an earlier one changes', () => {
    expect(cascaderReducer(chosen, { type: 'framework', value: 'tensorflow' })).toMatchObject({
      framework: 'tensorflow',
      version: null,
      python: null,
      pending: null,
    });
    expect(cascaderReducer(chosen, { type: 'version', value: '2.3.0' })).toMatchObject({
      framework: 'pytorch',
      version: '2.3.0',
      python: null,
      pending: null,
    });
    expect(cascaderReducer(chosen, { type: 'python', value: '3.11' })).toMatchObject({
      version: '2.5.1',
      python: '3.11',
      pending: null,
    });
  });

  it('keeps later levels when the same value is chosen again', () => {
    expect(cascaderReducer(chosen, { type: 'framework', value: 'pytorch' })).toBe(chosen);
    expect(cascaderReducer(chosen, { type: 'version', value: '2.5.1' })).toBe(chosen);
    expect(cascaderReducer(chosen, { type: 'python', value: '3.12' })).toBe(chosen);
  });

  it('does not skip levels, and confirm needs the last level', () => {
    const open = run({ type: 'open' });
    expect(cascaderReducer(open, { type: 'version', value: '2.5.1' })).toBe(open);
    expect(cascaderReducer(open, { type: 'python', value: '3.12' })).toBe(open);
    expect(cascaderReducer(open, { type: 'accelerator', image: pt251py312 })).toBe(open);
    const partial = run(
      { type: 'open' },
      { type: 'framework', value: 'pytorch' },
      { type: 'version', value: '2.5.1' },
    );
    expect(cascaderReducer(partial, { type: 'confirm' })).toBe(partial);
  });

  it('closing without confirm keeps the image chosen before; reopening shows its path', () => {
    const confirmed = cascaderReducer(chosen, { type: 'confirm' });
    const moved = [{ type: 'open' } as const, { type: 'framework', value: 'tensorflow' } as const].reduce(
      cascaderReducer,
      confirmed,
    );
    expect(moved.framework).toBe('tensorflow');
    const closed = cascaderReducer(moved, { type: 'close' });
    expect(closed).toMatchObject({
      open: false,
      selected: pt251py312,
      framework: 'pytorch',
      version: '2.5.1',
    });
    expect(cascaderReducer(closed, { type: 'open' })).toMatchObject({
      open: true,
      framework: 'pytorch',
      version: '2.5.1',
      python: '3.12',
      pending: pt251py312,
    });
  });

  it('clear forgets the image', () => {
    const confirmed = cascaderReducer(chosen, { type: 'confirm' });
    expect(cascaderReducer(confirmed, { type: 'clear' })).toEqual(INITIAL_CASCADER);
  });
});

describe('image cascader options', () => {
  it('lists each level from the image map in the server order', () => {
    expect(frameworkOptions(MAP)).toEqual(['pytorch', 'tensorflow', 'base']);
    expect(versionOptions(MAP, 'pytorch')).toEqual(['2.5.1', '2.3.0']);
    expect(versionOptions(MAP, 'base')).toEqual(['Ubuntu 22.04']);
    expect(versionOptions(MAP, null)).toEqual([]);
    expect(pythonOptions(MAP, 'pytorch', '2.5.1')).toEqual(['3.12', '3.11']);
    expect(pythonOptions(MAP, 'pytorch', null)).toEqual([]);
    expect(acceleratorOptions(MAP, 'pytorch', '2.5.1', '3.12')).toEqual([pt251py312, pt251py312cu121]);
    expect(acceleratorOptions(MAP, 'pytorch', '9.9', '3.12')).toEqual([]);
  });

  it('names the last level CUDA, CANN or MUSA', () => {
    expect(acceleratorLabel(image({ cudaVersion: '12.4' }))).toBe('CUDA 12.4');
    expect(acceleratorLabel(image({ cudaVersion: '', cannVersion: '8.0.RC2' }))).toBe('CANN 8.0.RC2');
    expect(acceleratorLabel(image({ cudaVersion: '', musaVersion: '3.1.0' }))).toBe('MUSA 3.1.0');
  });
});
