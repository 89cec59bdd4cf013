import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { settings, type T, tenantsAdminCalls } from './tenant-admin.test-helpers.ts';

let t: T;
let admin: Record<string, string>;
let tenantId = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
  tenantId = await createQingsong();
});
afterAll(() => t.close());

const { call, createQingsong } = tenantsAdminCalls(
  () => t,
  () => admin,
);

describe('image uploads', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );

  it('stores a checked image in the database and serves it to anyone', async () => {
    const res = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { url, size } = res.json().data;
    expect(size).toBe(png.length);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(png)).toBe(true);
    // Usable as a logo.
    const edit = await call('PUT', `/api/admin/tenants/${tenantId}`, { config: settings({ logoUrl: url }) });
    expect(edit.json().data.config.logoUrl).toBe(url);
  });

  it('refuses content that is not the declared type, other types and large files', async () => {
    const lie = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/jpeg;base64,${png.toString('base64')}`,
    });
    expect(lie.statusCode).toBe(400);
    expect(lie.json().message).toContain('dataUrl');
    const svg = await call('POST', '/api/admin/uploads', { dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' });
    expect(svg.statusCode).toBe(400);
    const big = Buffer.concat([png, Buffer.alloc(600 * 1024)]);
    const large = await call('POST', '/api/admin/uploads', {
      dataUrl: `data:image/png;base64,${big.toString('base64')}`,
    });
    expect(large.statusCode).toBe(400);
  });
});
