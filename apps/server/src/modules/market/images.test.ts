import { imageListSchema } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const images = async (q = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/gpu/images${q}` });
  expect(res.statusCode, res.body).toBe(200);
  return imageListSchema.parse(res.json().data);
};

describe('image catalogue', () => {
  it('groups framework → version → Python for the cascader', async () => {
    const { imageMap, imageList } = await images('?gpuBrand=NVIDIA&platformType=local');
    expect(Object.keys(imageMap).sort()).toEqual(['base', 'pytorch', 'tensorflow']);
    expect(Object.keys(imageMap.pytorch ?? {})).toEqual(expect.arrayContaining(['2.5.1', '2.1.2']));
    expect(Object.keys(imageMap.pytorch?.['2.5.1'] ?? {}).sort()).toEqual(['3.11', '3.12']);
    expect(imageMap.pytorch?.['2.5.1']?.['3.12']?.[0]?.cudaVersion).toBe('12.4');
    expect(Object.keys(imageMap.base ?? {})).toContain('Ubuntu 22.04');
    expect(imageList.every((i) => i.gpuBrand === 'NVIDIA')).toBe(true);
  });

  it('filters by brand: Ascend gets the CANN image, Moore Threads the MUSA one', async () => {
    const huawei = await images('?gpuBrand=huawei');
    expect(huawei.imageList).toHaveLength(1);
    expect(huawei.imageList[0]?.cannVersion).toBeTruthy();
    expect((await images('?gpuBrand=MTHREADS')).imageList[0]?.musaVersion).toBeTruthy();
    expect((await images('?platformType=vast.ai')).imageList).toEqual([]);
  });

  it('lists preset images and rejects unknown platforms', async () => {
    const preset = (await t.app.inject({ method: 'GET', url: '/api/gpu/preset-images' })).json().data;
    expect(preset.length).toBe(3);
    expect((await t.app.inject({ method: 'GET', url: '/api/gpu/images?platformType=aws' })).statusCode).toBe(
      400,
    );
  });
});
