import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IMAGE } from '../../test/instances.ts';
import { instances } from '../instances/instances.tables.ts';
import { operationsSuite } from './operations.test-helpers.ts';

/** 实例管理 (issue 28): every status, a status filter, a server-side search, package prices per period. */
const { h: app, req, running } = operationsSuite();
const URL = '/api/admin/user-management/instances';
type Row = { id: number; name: string; status: string; billingType: string; packagePrice: number | null };
const list = async (q: string) => {
  const res = await req('GET', `${URL}${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { list: Row[]; total: number };
};

describe('实例管理 list', () => {
  it('lists every status, filters by status and searches name, id, phone, host and container', async () => {
    const on = await running(500, 'mgmt-running');
    const off = await running(500, 'mgmt-off');
    expect((await app().action(off.headers, 'power_off', off.id)).statusCode).toBe(200);
    const gone = await running(500, 'mgmt-gone');
    expect((await app().action(gone.headers, 'release', gone.id)).statusCode).toBe(200);
    // A failed create, as the provisioning job leaves one.
    await app().t.db.update(instances).set({ status: 'FAILED' }).where(eq(instances.id, gone.id));

    const all = await list('?size=100');
    const statuses = new Set(all.list.map((r) => r.status));
    for (const s of ['RUNNING', 'STOPPED', 'FAILED']) expect(statuses, s).toContain(s);

    const stopped = await list('?status=STOPPED&size=100');
    expect(stopped.list.every((r) => r.status === 'STOPPED')).toBe(true);
    expect(stopped.list.map((r) => r.id)).toContain(off.id);
    expect(stopped.list.map((r) => r.id)).not.toContain(on.id);

    // By id (plain or "#12"), phone, host name, name and container id: server-side, paged.
    expect((await list(`?keyword=${on.id}`)).list.map((r) => r.id)).toContain(on.id);
    expect((await list(`?keyword=%23${on.id}`)).list.map((r) => r.id)).toContain(on.id);
    expect((await list(`?keyword=${off.user.phone}`)).list.map((r) => r.id)).toEqual([off.id]);
    expect((await list('?keyword=mgmt-r')).list.map((r) => r.name)).toEqual(['mgmt-running']);
    const byHost = await list('?keyword=nm-a-l40s&size=100');
    expect(byHost.list.map((r) => r.id)).toEqual(expect.arrayContaining([on.id, off.id]));
    const [row] = await app().t.db.select().from(instances).where(eq(instances.id, on.id));
    expect(row?.containerId).toBeTruthy();
    expect((await list(`?keyword=${row?.containerId}`)).list.map((r) => r.id)).toEqual([on.id]);
    const page = await list('?size=1&page=2');
    expect(page.list).toHaveLength(1);
    expect(page.total).toBe(all.total);
  });

  it('answers 400 naming the field for a bad status, billing type or page', async () => {
    for (const [q, text] of [
      ['?status=BOGUS', '实例状态'],
      ['?billingType=yearly', '计费方式'],
      ['?page=0', '页码'],
    ] as const) {
      const res = await req('GET', `${URL}${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toContain(text);
    }
  });

  it('prices a package per its period, pay-as-you-go per hour', async () => {
    const u = await app().funded(5_000);
    const res = await app().create(u.headers, {
      machineId: await app().idOf('bj-a-a100-01'),
      instanceName: 'mgmt-daily',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'daily',
      duration: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    const [pkg] = (await list(`?keyword=${u.user.phone}`)).list;
    // A100 on 北京A区: 150 yuan a day per GPU, 10 % off (the demo's discount), two GPUs.
    expect(pkg).toMatchObject({ id, billingType: 'daily', packagePrice: 270 });
    const hourly = (await list('?billingType=hourly&size=100')).list;
    expect(hourly.length).toBeGreaterThan(0);
    expect(hourly.every((r) => r.packagePrice === null)).toBe(true);
    expect((await app().action(u.headers, 'release', id)).statusCode).toBe(200);
  });
});
