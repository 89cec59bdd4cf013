import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { dataVolumeNameOf } from '../../hosts/drivers/volumes.ts';
import { hosts, simulatedContainers, simulatedVolumes } from '../../hosts/hosts.tables.ts';
import { instanceEvents } from '../instances.tables.ts';
import { lookups } from '../stopped.test-helpers.ts';
import { runReconcile } from '../tasks/reconcile.ts';

const OTHER_IMAGE = 'registry.gpu.local/tensorflow:2.16.1-py3.11-cuda12.3';
/** An image for HUAWEI cards: the market does not allow it on an NVIDIA machine. */
const WRONG_BRAND = 'registry.gpu.local/pytorch:2.1.0-py3.9-cann8.0.RC2';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const { row, container, volume } = lookups(() => h);
const reset = async (headers: Record<string, string>, id: number, body?: object) => {
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/gpu/instance/reset?instance_uuid=${id}`,
    headers,
    ...(body ? { payload: body } : {}),
  });
  await h.deps.jobs.drain();
  return res;
};
const make = async (yuan = 100) => {
  const u = await h.funded(yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: 'reset-me',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  return { u, id: res.json().data.id as number };
};

describe('reset system / change image', () => {
  it('recreates a powered-off instance: system disk new, data volume kept, nothing charged', async () => {
    const { u, id } = await make();
    const before = await row(id);
    expect(await volume(id)).toMatchObject({ name: dataVolumeNameOf(id) });
    const view = await h.view(u.headers, id);
    expect(view).toMatchObject({ dataMountPath: '/root/data', resettable: true });

    // Running: refused, nothing changes.
    const running = await reset(u.headers, id);
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe('实例当前运行中，无法重置系统');

    await h.action(u.headers, 'power_off', id);
    const old = before?.containerId as string;
    await h.t.db
      .update(simulatedContainers)
      .set({ files: { '/opt/system.txt': 'sys' } })
      .where(eq(simulatedContainers.id, old));
    await h.t.db
      .update(simulatedVolumes)
      .set({ files: { '/keep.txt': 'data' } })
      .where(eq(simulatedVolumes.name, dataVolumeNameOf(id)));
    const balance = await h.balance(u.user.id);

    const res = await reset(u.headers, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('RESETTING');
    expect(res.json().message).toBe('正在重置系统');
    const after = await row(id);
    expect(after).toMatchObject({ status: 'STOPPED', image: IMAGE, transitionJob: null });
    expect(after?.containerId).not.toBe(old);
    expect(await container(old)).toBeUndefined();
    const fresh = await container(after?.containerId as string);
    expect(fresh).toMatchObject({ name: `gpu-inst-${id}`, image: IMAGE, files: {}, state: 'created' });
    expect(fresh?.dataVolume).toEqual({ name: dataVolumeNameOf(id), mountPath: '/root/data' });
    expect((await volume(id))?.files).toEqual({ '/keep.txt': 'data' });
    expect(await h.balance(u.user.id)).toBe(balance);
    const events = await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, id));
    expect(events.map((e) => [e.toStatus, e.reason]).slice(-2)).toEqual([
      ['RESETTING', '重置系统'],
      ['STOPPED', '系统已重置'],
    ]);
    // It powers on as before.
    await h.action(u.headers, 'power_on', id);
    expect((await h.view(u.headers, id)).status).toBe('RUNNING');
    await h.action(u.headers, 'release', id);
  });

  it('changes the image to one the market allows for the machine, and validates it', async () => {
    const { u, id } = await make();
    await h.action(u.headers, 'power_off', id);

    const empty = await reset(u.headers, id, { image: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('请选择镜像');
    const extra = await reset(u.headers, id, { image: OTHER_IMAGE, keep: true });
    expect(extra.statusCode).toBe(400);
    const wrong = await reset(u.headers, id, { image: WRONG_BRAND });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('所选镜像不存在或不适用于该GPU');
    expect(await row(id)).toMatchObject({ status: 'STOPPED', image: IMAGE });

    const res = await reset(u.headers, id, { image: OTHER_IMAGE });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('正在更换镜像');
    const after = await row(id);
    expect(after).toMatchObject({ status: 'STOPPED', image: OTHER_IMAGE });
    expect((await container(after?.containerId as string))?.image).toBe(OTHER_IMAGE);
    expect((await h.view(u.headers, id)).image).toBe(OTHER_IMAGE);
    await h.action(u.headers, 'release', id);
  });

  it("answers 404 for another user's instance and 409 where the host cannot recreate", async () => {
    const { u, id } = await make();
    const other = await h.funded(0);
    await h.action(u.headers, 'power_off', id);
    expect((await reset(other.headers, id)).statusCode).toBe(404);
    expect((await reset(u.headers, 999_999)).statusCode).toBe(404);
    expect(
      (await h.t.app.inject({ method: 'POST', url: `/api/gpu/instance/reset?instance_uuid=${id}` }))
        .statusCode,
    ).toBe(401);

    const hostId = (await row(id))?.hostId as number;
    await h.t.db.update(hosts).set({ driver: 'vastai' }).where(eq(hosts.id, hostId));
    try {
      const refused = await reset(u.headers, id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('该实例所在的主机不支持重置系统或更换镜像');
    } finally {
      await h.t.db.update(hosts).set({ driver: 'simulated' }).where(eq(hosts.id, hostId));
    }
    expect((await row(id))?.status).toBe('STOPPED');
    await h.action(u.headers, 'release', id);
  });

  it('a failed recreate leaves the instance stopped with its container and image', async () => {
    const { u, id } = await make();
    await h.action(u.headers, 'power_off', id);
    const before = await row(id);
    await h.setHostSettings('nm-a-l40s-01', '{"unreachable":true}');
    try {
      const res = await reset(u.headers, id, { image: OTHER_IMAGE });
      expect(res.statusCode).toBe(200);
      expect(await row(id)).toMatchObject({
        status: 'STOPPED',
        image: IMAGE,
        containerId: before?.containerId,
        transitionJob: null,
      });
      const events = await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, id));
      expect(events.at(-1)?.reason).toMatch(/^重置失败：/);
    } finally {
      await h.setHostSettings('nm-a-l40s-01', '{"unreachable":false}');
    }
    await h.action(u.headers, 'release', id);
  });
});

describe('the data volume goes with the released instance', () => {
  it('release removes it; reconcile removes one whose instance is gone, never a live one', async () => {
    const { u, id } = await make();
    expect(await volume(id)).toBeDefined();
    await h.action(u.headers, 'release', id);
    expect((await row(id))?.status).toBe('RELEASED');
    expect(await volume(id)).toBeUndefined();

    // One a failed removal left behind (labelled with the released instance), next to a live one's.
    const live = await make();
    const leftover = await h.t.db
      .select()
      .from(simulatedVolumes)
      .where(eq(simulatedVolumes.name, dataVolumeNameOf(live.id)));
    const hostId = leftover[0]?.hostId as number;
    await h.t.db.insert(simulatedVolumes).values({
      hostId,
      name: dataVolumeNameOf(id),
      labels: { ...leftover[0]?.labels, 'io.gpu-platform.instance-id': String(id) },
    });
    const result = await runReconcile(h.deps);
    expect(result.orphanVolumesRemoved).toEqual([dataVolumeNameOf(id)]);
    const names = (
      await h.t.db
        .select()
        .from(simulatedVolumes)
        .where(and(eq(simulatedVolumes.hostId, hostId)))
    ).map((v) => v.name);
    expect(names).toContain(dataVolumeNameOf(live.id));
    expect(names).not.toContain(dataVolumeNameOf(id));
    await h.action(live.u.headers, 'release', live.id);
  });

  it('refuses up front to reset to a saved image deleted since (409, nothing changes); changing the image still works', async () => {
    const { u, id } = await make();
    await h.action(u.headers, 'power_off', id);
    const saved = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/save-image?instance_uuid=${id}`,
      headers: u.headers,
      payload: { name: 'gone-soon' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await h.deps.jobs.drain();
    const list = await h.t.app.inject({ method: 'GET', url: '/api/user/images', headers: u.headers });
    const img = list.json().data.items[0];
    const made = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'from-mine',
      image: img.image,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    const mine = made.json().data.id as number;
    await h.action(u.headers, 'power_off', mine);
    // While the image exists, resetting to it is fine.
    expect((await reset(u.headers, mine)).statusCode).toBe(200);
    const del = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/user/images/${img.id}`,
      headers: u.headers,
    });
    expect(del.statusCode).toBe(200);
    await h.deps.imageDeletes.drain();

    const before = await row(mine);
    const refused = await reset(u.headers, mine);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('原镜像已删除，无法重置系统，请用“更换镜像”选择其他镜像');
    expect(await row(mine)).toMatchObject({
      status: 'STOPPED',
      image: img.image,
      containerId: before?.containerId,
      updatedAt: before?.updatedAt,
    });
    const events = await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, mine));
    expect(events.filter((e) => e.toStatus === 'RESETTING')).toHaveLength(1);

    const changed = await reset(u.headers, mine, { image: IMAGE });
    expect(changed.statusCode).toBe(200);
    expect(await row(mine)).toMatchObject({ status: 'STOPPED', image: IMAGE });
    await h.action(u.headers, 'release', mine);
    await h.action(u.headers, 'release', id);
  });
});
