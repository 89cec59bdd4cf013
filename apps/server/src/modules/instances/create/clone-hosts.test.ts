import { yuanToUnits } from '@gpu/shared';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { addTwinHost, heldGpusOf, instanceTestApp } from '../../../test/instances.ts';
import { cloneTransferRefsOf } from '../../hosts/drivers/clone.ts';
import { dataVolumeNameOf } from '../../hosts/drivers/volumes.ts';
import { simulatedContainers, simulatedImages, simulatedVolumes } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { lookups, stoppedWithFiles } from '../stopped.test-helpers.ts';
import { dropCloneTransferOf } from './clone-transfer.usecases.ts';

const HOST = 'bj-a-a100-01';
const TWIN = 'bj-a-a100-02';
/** ¥6.00 per GPU-hour: not the source machine's ¥7.58, so a charge shows which machine it priced. */
const TWIN_PRICE = 60_000;
const REGISTRY = 'registry.sim:5000/platform';
const clock = fixedClock('2026-11-26T08:00:00Z');
const daily = { instanceName: 'far-clone', gpuAmount: 2, billingType: 'daily', duration: 2 };

type App = Awaited<ReturnType<typeof instanceTestApp>>;

/** One app (with or without a registry) with a second A100 host in Beijing. */
async function world(config?: Record<string, string>) {
  const h = await instanceTestApp(clock, config);
  const twin = await addTwinHost(h.t.db, HOST, TWIN, TWIN_PRICE);
  const { row } = lookups(() => h);
  const clone = async (headers: Record<string, string>, id: number, body: Record<string, unknown>) => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/clone?instance_uuid=${id}`,
      headers,
      payload: body,
    });
    await h.deps.jobs.drain();
    return res;
  };
  const targets = (headers: Record<string, string>, id: number) =>
    h.t.app.inject({ method: 'GET', url: `/api/gpu/instance/clone-targets?instance_uuid=${id}`, headers });
  /** A powered-off instance on HOST with a file on its system disk and one in its data volume. */
  const source = () =>
    stoppedWithFiles(h, {
      host: HOST,
      name: 'far-src',
      yuan: 100_000,
      system: { '/opt/env.txt': 'conda env' },
      data: { '/dataset.txt': 'data' },
    });
  return { h, twin, row, clone, targets, source };
}

/** Transfer images still held anywhere (hosts and the simulated registry, host 0). */
const transferImages = (h: App) =>
  h.t.db.select().from(simulatedImages).where(like(simulatedImages.ref, '%gpu-platform/clone-transfer:%'));

describe('clone to another host, with IMAGE_REGISTRY', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world({ IMAGE_REGISTRY: REGISTRY });
  });
  afterAll(() => w.h.t.close());

  it('offers the source machine first, then the region’s other machines of its GPU model', async () => {
    const { u, id } = await w.source();
    const res = await w.targets(u.headers, id);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.otherHosts).toBe(true);
    expect(data.list.map((t: { hostName: string; sameHost: boolean }) => [t.hostName, t.sameHost])).toEqual([
      [HOST, true],
      [TWIN, false],
    ]);
    expect(data.list[1]).toMatchObject({ gpuModel: 'A100 80GB', gpuIdleNum: 8 });
    const other = await w.h.funded(10);
    expect((await w.targets(other.headers, id)).statusCode).toBe(404);
    await w.h.action(u.headers, 'release', id);
  });

  it('clones onto the other host: both disks arrive, charged as a new instance at that machine’s price, no transfer image left', async () => {
    const { u, id, containerId } = await w.source();
    const machineId = await w.h.idOf(TWIN);
    const quote = await w.h.t.app.inject({
      method: 'POST',
      url: '/api/v2/package-billing/calculate-price',
      headers: u.headers,
      payload: { machineId, billingType: 'daily', duration: 2, gpuAmount: 2 },
    });
    const payable = yuanToUnits(quote.json().data.payableAmount);
    const before = await w.h.balance(u.user.id);
    const res = await w.clone(u.headers, id, { ...daily, machineId });
    expect(res.statusCode, res.body).toBe(200);
    const cloneId = res.json().data.id as number;
    const made = await w.row(cloneId);
    expect(made).toMatchObject({ status: 'RUNNING', hostId: w.twin.id, skuId: machineId, gpuCount: 2 });
    expect(made?.charged).toBe(payable);
    // ¥6.00 × 24 h × 2 GPUs × 2 days, before any discount: below the source machine's price.
    expect(payable).toBeLessThan(yuanToUnits(7.58) * 24 * 2 * 2);
    expect(await w.h.balance(u.user.id)).toBeCloseTo(before - payable / 10_000, 4);
    expect(await heldGpusOf(w.h.t.db, cloneId)).toHaveLength(2);
    const [copy] = await w.h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, made?.containerId as string));
    expect(copy).toMatchObject({ hostId: w.twin.id, files: { '/opt/env.txt': 'conda env' } });
    // The secrets are the clone's own; the image kept none of the source's values.
    expect(copy?.envKeys).toContain('ROOT_PASSWORD');
    const [volume] = await w.h.t.db
      .select()
      .from(simulatedVolumes)
      .where(eq(simulatedVolumes.name, dataVolumeNameOf(cloneId)));
    expect(volume).toMatchObject({ hostId: w.twin.id, files: { '/dataset.txt': 'data' } });
    expect(await transferImages(w.h)).toEqual([]);
    // The source: as it was.
    expect(await w.row(id)).toMatchObject({ status: 'STOPPED', containerId });
    await w.h.action(u.headers, 'release', cloneId);
    await w.h.action(u.headers, 'release', id);
  });

  it('a clone that fails on the other host is refunded in full and leaves no transfer image', async () => {
    const { u, id } = await w.source();
    const before = await w.h.balance(u.user.id);
    await w.h.setHostSettings(TWIN, '{"failureRate":1}');
    let res: Awaited<ReturnType<typeof w.clone>>;
    try {
      res = await w.clone(u.headers, id, { ...daily, machineId: await w.h.idOf(TWIN) });
    } finally {
      await w.h.setHostSettings(TWIN, '{"failureRate":0}');
    }
    expect(res.statusCode).toBe(200);
    const cloneId = res.json().data.id as number;
    const failed = await w.row(cloneId);
    expect(failed).toMatchObject({ status: 'FAILED', charged: 0 });
    expect(failed?.stopReason).toContain('费用已全额退回');
    expect(await w.h.balance(u.user.id)).toBe(before);
    expect(await heldGpusOf(w.h.t.db, cloneId)).toEqual([]);
    expect(await transferImages(w.h)).toEqual([]);
    expect((await w.row(id))?.status).toBe('STOPPED');
    // What a crash between push and cleanup would leave: a failed clone's cleanup removes it.
    const refs = cloneTransferRefsOf(cloneId, REGISTRY);
    await w.h.t.db.insert(simulatedImages).values(
      [0, w.twin.id, (await w.row(id))?.hostId as number].map((hostId) => ({
        hostId,
        ref: refs.system,
        files: {},
        env: [],
        sizeBytes: 1,
      })),
    );
    expect(await transferImages(w.h)).toHaveLength(3);
    await dropCloneTransferOf(w.h.deps, failed as NonNullable<typeof failed>);
    expect(await transferImages(w.h)).toEqual([]);
    await w.h.action(u.headers, 'release', id);
  });

  it('refuses a machine of another region or GPU model (422) and an unknown one (404), buying nothing', async () => {
    const { u, id } = await w.source();
    const wrong = await w.clone(u.headers, id, { ...daily, machineId: await w.h.idOf('gd-b-h100-01') });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('克隆的目标机器须与源实例在同一地区、同一 GPU 型号');
    expect((await w.clone(u.headers, id, { ...daily, machineId: 999_999 })).statusCode).toBe(404);
    const mine = await w.h.t.db.select().from(instances).where(eq(instances.userId, u.user.id));
    expect(mine.map((i) => i.id)).toEqual([id]);
    await w.h.action(u.headers, 'release', id);
  });
});

describe('clone to another host, without IMAGE_REGISTRY', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(() => w.h.t.close());

  it('offers only the source’s host and refuses another one with 409 in Chinese, buying nothing', async () => {
    const { u, id } = await w.source();
    const offered = (await w.targets(u.headers, id)).json().data;
    expect(offered.otherHosts).toBe(false);
    expect(offered.list.map((t: { hostName: string }) => t.hostName)).toEqual([HOST]);
    const before = await w.h.balance(u.user.id);
    const res = await w.clone(u.headers, id, { ...daily, machineId: await w.h.idOf(TWIN) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('平台未配置镜像仓库，克隆只能放在源实例所在的主机上，请选择源实例的机器');
    const mine = await w.h.t.db.select().from(instances).where(eq(instances.userId, u.user.id));
    expect(mine.map((i) => i.id)).toEqual([id]);
    expect(await w.h.balance(u.user.id)).toBe(before);
    await w.h.action(u.headers, 'release', id);
  });
});
