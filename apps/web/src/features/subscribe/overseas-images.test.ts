import { describe, expect, it } from 'vitest';
import { imagesForOffer } from './overseas-images';
import { image } from './test-fixtures';

describe('imagesForOffer', () => {
  it('keeps the images whose CUDA the offer runs, dropping emptied groups', () => {
    const old = image({ imageUrl: 'a', cudaVersion: '11.8' });
    const same = image({ imageUrl: 'b', cudaVersion: '12.4' });
    const newer = image({ imageUrl: 'c', cudaVersion: '12.10' });
    const map = { pytorch: { '2.4': { '3.11': [old, same] } }, base: { '': { '': [newer] } } };
    expect(imagesForOffer(map, '12.4')).toEqual({ pytorch: { '2.4': { '3.11': [old, same] } } });
    expect(imagesForOffer(map, '12.10')).toEqual(map);
    expect(imagesForOffer(map, '')).toEqual({});
    expect(imagesForOffer(undefined, '12.4')).toBeUndefined();
  });
});
