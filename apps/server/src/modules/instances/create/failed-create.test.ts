import type { Instance } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';

// What a failed create leaves for its owner: the reason and what happened to the money in
// stopReason, 重新创建 (same settings, a new order) and 删除记录 (off the list).

const HOST = 'nm-a-l40s-01';
const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const failedCreate = async (
  headers: Record<string, string>,
  billingType: 'hourly' | 'daily',
  name: string,
) => {
  const machineId = await h.idOf(HOST);
  await h.setHostSettings(HOST, '{"unreachable":true}');
  try {
    const res = await h.create(headers, {
      machineId,
      instanceName: name,
      image: IMAGE,
      gpuAmount: 1,
      billingType,
      duration: 1,
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.id as number;
  } finally {
    await h.setHostSettings(HOST, '{"unreachable":false}');
  }
};
const post = (headers: Record<string, string>, url: string) =>
  h.t.app.inject({ method: 'POST', url, headers });
const list = async (headers: Record<string, string>) =>
  (await h.t.app.inject({ method: 'GET', url: '/api/gpu/instances?size=100', headers })).json().data
    .list as Instance[];

describe('a failed create', () => {
  it('says why and that nothing was charged (pay-as-you-go), or that the package was refunded', async () => {
    const u = await h.funded(500);
    const hourly = await failedCreate(u.headers, 'hourly', 'fail-hourly');
    const daily = await failedCreate(u.headers, 'daily', 'fail-daily');
    expect(await h.view(u.headers, hourly)).toMatchObject({
      status: 'FAILED',
      charged: 0,
      stopReason: '创建失败：GPU 主机无法连接，未扣费',
    });
    expect(await h.view(u.headers, daily)).toMatchObject({
      status: 'FAILED',
      charged: 0,
      stopReason: '创建失败：GPU 主机无法连接，费用已全额退回',
    });
    expect(await h.balance(u.user.id)).toBe(500);
  });

  it('重新创建 buys the same settings again and takes the failed record off the list', async () => {
    const u = await h.funded(500);
    const id = await failedCreate(u.headers, 'daily', 'again');
    const res = await post(u.headers, `/api/gpu/instance/recreate?instance_uuid=${id}`);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().data as Instance;
    expect(fresh).toMatchObject({ name: 'again', billingType: 'daily', gpuCount: 1, image: IMAGE });
    expect(fresh.id).not.toBe(id);
    await h.deps.jobs.drain();
    const rows = await list(u.headers);
    expect(rows.map((i) => i.id)).toEqual([fresh.id]);
    expect(rows[0]?.status).toBe('RUNNING');
    // Charged once, for the new order only.
    expect(await h.balance(u.user.id)).toBeCloseTo(500 - (rows[0]?.charged ?? 0), 2);
    // The failed one cannot be bought again twice.
    expect((await post(u.headers, `/api/gpu/instance/recreate?instance_uuid=${id}`)).statusCode).toBe(404);
    await h.action(u.headers, 'release', fresh.id);
  });

  it('删除记录 takes it off the list; only FAILED instances of the owner', async () => {
    const u = await h.funded(500);
    const other = await h.funded(0);
    const id = await failedCreate(u.headers, 'hourly', 'gone');
    expect((await post(other.headers, `/api/gpu/instance/dismiss?instance_uuid=${id}`)).statusCode).toBe(404);
    expect((await post(other.headers, `/api/gpu/instance/recreate?instance_uuid=${id}`)).statusCode).toBe(
      404,
    );
    const res = await post(u.headers, `/api/gpu/instance/dismiss?instance_uuid=${id}`);
    expect(res.statusCode).toBe(200);
    expect(await list(u.headers)).toEqual([]);
    expect((await post(u.headers, `/api/gpu/instance/dismiss?instance_uuid=${id}`)).statusCode).toBe(404);
    // A running instance is no record to delete.
    const running = await h.create(u.headers, {
      machineId: await h.idOf(HOST),
      instanceName: 'alive',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    const rid = running.json().data.id as number;
    expect((await post(u.headers, `/api/gpu/instance/dismiss?instance_uuid=${rid}`)).statusCode).toBe(404);
    expect((await post(u.headers, `/api/gpu/instance/recreate?instance_uuid=${rid}`)).statusCode).toBe(404);
    await h.action(u.headers, 'release', rid);
  });
});
