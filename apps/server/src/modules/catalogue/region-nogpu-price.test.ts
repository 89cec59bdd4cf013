import { regionSchema } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { catalogueCalls, type T } from './catalogue.test-helpers.ts';

// No-GPU mode's price per region (无卡模式, issue 30): an admin setting on the region.
let t: T;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const { call, lastAudit } = catalogueCalls(
  () => t,
  () => admin,
);
const stored = async (id: number) =>
  (await t.db.select().from(regions).where(eq(regions.id, id)))[0]?.noGpuHourlyPrice;

describe('regions: no-GPU mode price', () => {
  it('defaults to ¥0.10/h, is set on create and edit (stored in units), each write audited', async () => {
    const plain = await call('POST', '/api/admin/regions', { name: '江苏A区', code: 'jiangsu-a' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(regionSchema.parse(plain.json().data).noGpuHourlyPrice).toBe(0.1);
    expect(await stored(plain.json().data.id)).toBe(1_000);

    const priced = await call('POST', '/api/admin/regions', {
      name: '浙江A区',
      code: 'zhejiang-a',
      noGpuHourlyPrice: 0.3,
    });
    const id = priced.json().data.id as number;
    expect(priced.json().data.noGpuHourlyPrice).toBe(0.3);
    expect(await stored(id)).toBe(3_000);

    const edited = await call('PUT', `/api/admin/regions/${id}`, { noGpuHourlyPrice: 0.25 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ name: '浙江A区', noGpuHourlyPrice: 0.25 });
    expect(await stored(id)).toBe(2_500);
    expect((await lastAudit('regions.update', `region:${id}`))?.detail).toMatchObject({
      before: { noGpuHourlyPrice: 3_000 },
      after: { noGpuHourlyPrice: 2_500 },
    });
    const listed = (await call('GET', '/api/admin/regions')).json().data as {
      id: number;
      noGpuHourlyPrice: number;
    }[];
    expect(listed.find((r) => r.id === id)?.noGpuHourlyPrice).toBe(0.25);
  });

  it.each([
    [-1, '不能低于'],
    [0, '不能低于'],
    [0.005, '不能低于'],
    [0.123, '最多 2 位小数'],
    [100.01, '不能超过'],
    ['0.1', '必须是数字'],
  ])('refuses %s with a 400 in Chinese naming the field, changing nothing', async (value, words) => {
    const [region] = await t.db.select().from(regions).where(eq(regions.code, 'jiangsu-a'));
    const id = region?.id as number;
    const res = await call('PUT', `/api/admin/regions/${id}`, { noGpuHourlyPrice: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('无卡模式价格');
    expect(res.json().message).toContain(words);
    expect(await stored(id)).toBe(1_000);
  });

  it('is an admin write: a read-only admin gets 403', async () => {
    const readonly = await t.adminHeaders('nogpu-readonly', { role: 'READONLY' });
    const [region] = await t.db.select().from(regions).where(eq(regions.code, 'jiangsu-a'));
    const res = await call('PUT', `/api/admin/regions/${region?.id}`, { noGpuHourlyPrice: 1 }, readonly);
    expect(res.statusCode).toBe(403);
    expect(await stored(region?.id as number)).toBe(1_000);
  });
});
