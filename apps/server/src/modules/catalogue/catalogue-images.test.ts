import { adminImageSchema } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { catalogueCalls, type T } from './catalogue.test-helpers.ts';

let t: T;
let admin: Record<string, string>;

// An empty production database (DEMO_DATA=off): only the default tenant exists.
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const { call, lastAudit } = catalogueCalls(
  () => t,
  () => admin,
);

describe('images', () => {
  it('creates, filters, edits and disables an image', async () => {
    const res = await call('POST', '/api/admin/images', {
      imageName: 'PyTorch 2.5',
      imageUrl: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
      frameworkType: 'pytorch',
      frameworkVersion: '2.5.1',
      pythonVersion: '3.11',
      cudaVersion: '12.4',
    });
    expect(res.statusCode, res.body).toBe(200);
    const image = adminImageSchema.parse(res.json().data);
    expect(image).toMatchObject({ gpuBrand: 'NVIDIA', enabled: true, platformType: 'local' });

    // The user catalogue shows it while enabled.
    const userList = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/gpu/images?gpuBrand=NVIDIA' })).json().data
        .imageList as {
        imageUrl: string;
      }[];
    expect((await userList()).map((i) => i.imageUrl)).toContain(image.imageUrl);

    const page = (await call('GET', '/api/admin/images?keyword=2.5&frameworkType=pytorch')).json().data;
    expect(page.total).toBe(1);
    expect((await call('GET', '/api/admin/images?frameworkType=tensorflow')).json().data.total).toBe(0);

    const off = await call('PUT', `/api/admin/images/${image.id}`, { enabled: false });
    expect(off.json().data.enabled).toBe(false);
    expect((await userList()).map((i) => i.imageUrl)).not.toContain(image.imageUrl);
    expect((await lastAudit('images.update', `image:${image.id}`))?.detail).toMatchObject({
      before: { enabled: true },
      after: { enabled: false },
    });
    await call('PUT', `/api/admin/images/${image.id}`, { enabled: true });
    expect((await call('GET', `/api/admin/images/${image.id}`)).json().data.imageName).toBe('PyTorch 2.5');
  });

  it('refuses a duplicate URL, a bad framework and unknown ids', async () => {
    const dup = await call('POST', '/api/admin/images', {
      imageName: '重复',
      imageUrl: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
      frameworkType: 'pytorch',
    });
    expect(dup.statusCode).toBe(409);
    const bad = await call('POST', '/api/admin/images', {
      imageName: 'x',
      imageUrl: 'a/b:1',
      frameworkType: 'jax',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('frameworkType');
    const badUrl = await call('POST', '/api/admin/images', {
      imageName: 'x',
      imageUrl: 'A B',
      frameworkType: 'base',
    });
    expect(badUrl.json().message).toContain('imageUrl');
    expect((await call('GET', '/api/admin/images/999999')).statusCode).toBe(404);
    expect((await call('PUT', '/api/admin/images/999999', { enabled: false })).statusCode).toBe(404);
  });
});
