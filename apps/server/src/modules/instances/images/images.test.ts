import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hosts, simulatedContainers, simulatedImages } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { lookups, stoppedWithFiles } from '../stopped.test-helpers.ts';
import { userImages } from '../user-images.tables.ts';

const clock = fixedClock('2026-11-26T08:00:00Z');
const HOST = 'nm-a-l40s-01';
const OTHER = 'bj-a-a100-01';
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  h.t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const save = (
  headers: Headers,
  id: number,
  body: object = { name: '我的环境', description: 'torch + 数据' },
) => inject('POST', `/api/gpu/instance/save-image?instance_uuid=${id}`, headers, body);
const list = async (headers: Headers) => (await inject('GET', '/api/user/images', headers)).json().data;
const { row } = lookups(() => h);
/** A user with a powered-off instance on `host` whose system disk holds /opt/env.txt. */
const stopped = (host = HOST) =>
  stoppedWithFiles(h, { host, name: 'save-me', yuan: 100, system: { '/opt/env.txt': 'conda env' } });
const setQuota = async (maxCount: number, maxTotalGb: number) => {
  const res = await inject('PUT', '/api/admin/user-images/quota', await h.t.adminHeaders(), {
    maxCount,
    maxTotalGb,
  });
  expect(res.statusCode).toBe(200);
};

describe('save as image', () => {
  it('saves a powered-off instance as a job: 保存中 then 可用, its files in a new instance, nothing charged', async () => {
    const { u, id } = await stopped();
    // Long enough that the job cannot finish before the two refused requests below, even on a
    // loaded CI machine (200 ms could: the save was done before power_on was asked).
    await h.setHostSettings(HOST, '{"latencyMs":3000}');
    const balance = await h.balance(u.user.id);
    const res = await save(u.headers, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: '我的环境', status: 'SAVING', progress: 0, image: null });
    expect((await row(id))?.status).toBe('SAVING_IMAGE');
    // While it saves the instance is busy: no power on, no second save.
    const on = await inject('POST', `/api/gpu/instance/power_on?instance_uuid=${id}`, u.headers);
    expect(on.statusCode).toBe(409);
    expect(on.json().message).toBe('实例当前保存镜像中，无法开机');
    const busy = await inject('DELETE', `/api/user/images/${res.json().data.id}`, u.headers);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('镜像正在保存，暂不能删除');
    await h.deps.jobs.drain();
    await h.setHostSettings(HOST, '{"latencyMs":0}');

    const mine = await list(u.headers);
    expect(mine.items).toHaveLength(1);
    const img = mine.items[0];
    expect(img).toMatchObject({
      status: 'AVAILABLE',
      progress: 100,
      sourceInstanceId: id,
      sourceInstanceName: 'save-me',
      hostName: HOST,
      description: 'torch + 数据',
      error: null,
    });
    expect(img.hostId).toBeTypeOf('number');
    expect(img.image).toMatch(/^gpu-platform\/user-image:u\d+-i\d+$/);
    expect(img.sizeBytes).toBe(1024 ** 3 + 'conda env'.length);
    expect(mine).toMatchObject({
      usedCount: 1,
      usedBytes: img.sizeBytes,
      quota: { maxCount: 5, maxTotalGb: 100 },
    });
    expect((await row(id))?.status).toBe('STOPPED');
    expect(await h.balance(u.user.id)).toBe(balance);

    // A new instance from it on the same host has the saved system disk.
    const made = await h.create(u.headers, {
      machineId: await h.idOf(HOST),
      instanceName: 'from-image',
      image: img.image,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(made.statusCode).toBe(200);
    const copy = await row(made.json().data.id);
    expect(copy).toMatchObject({ status: 'RUNNING', image: img.image });
    const [c] = await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, copy?.containerId as string));
    expect(c?.files).toEqual({ '/opt/env.txt': 'conda env' });

    // Without a registry, another host cannot run it.
    const elsewhere = await h.create(u.headers, {
      machineId: await h.idOf(OTHER),
      instanceName: 'wrong-host',
      image: img.image,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().message).toBe(`该镜像只保存在主机 ${HOST} 上，请选择该主机上的机器`);
    await h.action(u.headers, 'release', copy?.id as number);
    await h.action(u.headers, 'release', id);
  });

  it('refuses a running instance, a bad name, a host that cannot, and another user’s instance or image (404)', async () => {
    const { u, id } = await stopped();
    await h.action(u.headers, 'power_on', id);
    const running = await save(u.headers, id);
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe('实例当前运行中，无法保存镜像');
    await h.action(u.headers, 'power_off', id);
    const blank = await save(u.headers, id, { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('请填写镜像名称');

    // A host whose driver cannot (vast.ai's capabilities): refused in Chinese, nothing changes.
    const hostId = (await row(id))?.hostId as number;
    await h.t.db.update(hosts).set({ driver: 'vastai' }).where(eq(hosts.id, hostId));
    try {
      const refused = await save(u.headers, id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('该实例所在的主机不支持保存镜像');
    } finally {
      await h.t.db.update(hosts).set({ driver: 'simulated' }).where(eq(hosts.id, hostId));
    }
    expect((await row(id))?.status).toBe('STOPPED');
    expect((await list(u.headers)).items).toEqual([]);

    const other = await h.funded(10);
    expect((await save(other.headers, id)).statusCode).toBe(404);
    expect((await save(u.headers, id)).statusCode).toBe(200);
    await h.deps.jobs.drain();
    const img = (await list(u.headers)).items[0];
    expect((await list(other.headers)).items).toEqual([]);
    const del = await inject('DELETE', `/api/user/images/${img.id}`, other.headers);
    expect(del.statusCode).toBe(404);
    expect(del.json().message).toBe('镜像不存在');
    const theirs = await h.create(other.headers, {
      machineId: await h.idOf(HOST),
      instanceName: 'not-mine',
      image: img.image,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('镜像不存在');
    await h.action(u.headers, 'release', id);
  });

  it('quotas: the count refuses a save (409); a commit over the size fails it (失败), nothing kept or charged', async () => {
    await setQuota(1, 100);
    const { u, id } = await stopped();
    expect((await save(u.headers, id)).statusCode).toBe(200);
    await h.deps.jobs.drain();
    const second = await save(u.headers, id, { name: '第二个' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('镜像数量已达上限（1 个），请先删除不用的镜像');

    await setQuota(5, 1);
    const size = await save(u.headers, id, { name: '太大' });
    expect(size.statusCode).toBe(409);
    expect(size.json().message).toBe('镜像总容量已达上限（1 GB），请先删除不用的镜像');

    // Another user under the 1 GB quota: the commit (1 GiB + files) comes out over it.
    const other = await stopped();
    const balance = await h.balance(other.u.user.id);
    expect((await save(other.u.headers, other.id)).statusCode).toBe(200);
    await h.deps.jobs.drain();
    const failed = (await list(other.u.headers)).items[0];
    expect(failed).toMatchObject({ status: 'FAILED', image: null });
    expect(failed.error).toMatch(/^镜像大小 1\.0 GB 超出剩余容量配额（上限 1 GB）$/);
    expect((await list(other.u.headers)).usedCount).toBe(0);
    expect((await row(other.id))?.status).toBe('STOPPED');
    expect(await h.balance(other.u.user.id)).toBe(balance);
    const kept = await h.t.db
      .select()
      .from(simulatedImages)
      .where(eq(simulatedImages.ref, `gpu-platform/user-image:u${other.u.user.id}-i${failed.id}`));
    expect(kept).toEqual([]);
    await setQuota(5, 100);
    await h.action(u.headers, 'release', id);
    await h.action(other.u.headers, 'release', other.id);
  });

  it('a failing host fails the save (失败) and leaves the instance powered off', async () => {
    const { u, id } = await stopped(OTHER);
    await h.setHostSettings(OTHER, '{"failureRate":1}');
    expect((await save(u.headers, id)).statusCode).toBe(200);
    await h.deps.jobs.drain();
    await h.setHostSettings(OTHER, '{"failureRate":0}');
    const [img] = (await list(u.headers)).items;
    expect(img).toMatchObject({ status: 'FAILED', error: '模拟主机故障，请重试' });
    expect((await row(id))?.status).toBe('STOPPED');
    await h.action(u.headers, 'release', id);
  });

  it('deletes: refused while an instance is being created from it; then gone from the list, the quota and the host', async () => {
    const { u, id } = await stopped();
    await save(u.headers, id);
    await h.deps.jobs.drain();
    const img = (await list(u.headers)).items[0];
    // An instance of the user's in CREATING from it (as a create commits it): delete waits.
    await h.t.db.update(instances).set({ image: img.image, status: 'CREATING' }).where(eq(instances.id, id));
    const refused = await inject('DELETE', `/api/user/images/${img.id}`, u.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('镜像正被用于创建实例，暂不能删除');
    await h.t.db.update(instances).set({ image: IMAGE, status: 'STOPPED' }).where(eq(instances.id, id));

    const res = await inject('DELETE', `/api/user/images/${img.id}`, u.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('镜像已删除');
    expect(await list(u.headers)).toMatchObject({ items: [], usedCount: 0, usedBytes: 0 });
    await h.deps.imageDeletes.drain();
    expect(await h.t.db.select().from(userImages).where(eq(userImages.id, img.id))).toEqual([]);
    const onHost = await h.t.db
      .select()
      .from(simulatedImages)
      .where(and(eq(simulatedImages.ref, img.image)));
    expect(onHost).toEqual([]);
    expect((await inject('DELETE', `/api/user/images/${img.id}`, u.headers)).statusCode).toBe(404);
    await h.action(u.headers, 'release', id);
  });
});
