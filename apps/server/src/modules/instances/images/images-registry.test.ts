import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { auditLog } from '../../audit/audit.tables.ts';
import { simulatedContainers, simulatedImages } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';

const clock = fixedClock('2026-11-26T08:00:00Z');
const REGISTRY = 'registry.sim:5000/platform';
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock, { IMAGE_REGISTRY: REGISTRY });
});
afterAll(() => h.t.close());

const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
const hostsHolding = async (ref: string) =>
  (await h.t.db.select().from(simulatedImages).where(eq(simulatedImages.ref, ref)))
    .map((r) => r.hostId)
    .sort();

describe('saved images with IMAGE_REGISTRY', () => {
  it('pushes the save, creates on another host by pulling it, and deletes it from the registry and every host', async () => {
    const u = await h.funded(100);
    const make = (host: string, image: string, name: string) =>
      h
        .idOf(host)
        .then((machineId) =>
          h.create(u.headers, { machineId, instanceName: name, image, gpuAmount: 1, billingType: 'hourly' }),
        );
    const id = (await make('nm-a-l40s-01', IMAGE, 'source')).json().data.id as number;
    await h.action(u.headers, 'power_off', id);
    await h.t.db
      .update(simulatedContainers)
      .set({ files: { '/opt/model.txt': 'weights' } })
      .where(eq(simulatedContainers.id, (await row(id))?.containerId as string));
    const saved = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/save-image?instance_uuid=${id}`,
      headers: u.headers,
      payload: { name: 'everywhere' },
    });
    expect(saved.statusCode).toBe(200);
    await h.deps.jobs.drain();
    const list = await h.t.app.inject({ method: 'GET', url: '/api/user/images', headers: u.headers });
    const img = list.json().data.items[0];
    expect(img).toMatchObject({ status: 'AVAILABLE', hostId: null, hostName: 'nm-a-l40s-01' });
    expect(img.image).toBe(`${REGISTRY}/gpu-platform/user-image:u${u.user.id}-i${img.id}`);
    const source = await row(id);
    expect(await hostsHolding(img.image)).toEqual([0, source?.hostId]);

    const made = await make('bj-a-a100-01', img.image, 'pulled');
    expect(made.statusCode).toBe(200);
    const copy = await row(made.json().data.id);
    expect(copy?.status).toBe('RUNNING');
    const [c] = await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, copy?.containerId as string));
    expect(c?.files).toEqual({ '/opt/model.txt': 'weights' });
    expect((await hostsHolding(img.image)).length).toBe(3);

    const del = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/user/images/${img.id}`,
      headers: u.headers,
    });
    expect(del.statusCode).toBe(200);
    await h.deps.imageDeletes.drain();
    expect(await hostsHolding(img.image)).toEqual([]);
  });

  it('administrators set the quota (audited); bad values are refused in Chinese', async () => {
    const admin = await h.t.adminHeaders();
    const bad = await h.t.app.inject({
      method: 'PUT',
      url: '/api/admin/user-images/quota',
      headers: admin,
      payload: { maxCount: -1, maxTotalGb: 10 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('镜像数量上限不能小于 0');
    const put = await h.t.app.inject({
      method: 'PUT',
      url: '/api/admin/user-images/quota',
      headers: admin,
      payload: { maxCount: 3, maxTotalGb: 50 },
    });
    expect(put.json().data).toEqual({ maxCount: 3, maxTotalGb: 50 });
    const got = await h.t.app.inject({ method: 'GET', url: '/api/admin/user-images/quota', headers: admin });
    expect(got.json().data).toEqual({ maxCount: 3, maxTotalGb: 50 });
    const audits = await h.t.db.select().from(auditLog).where(eq(auditLog.action, 'images.user_quota'));
    expect(audits.map((a) => a.detail)).toEqual([
      { before: { maxCount: 5, maxTotalGb: 100 }, after: { maxCount: 3, maxTotalGb: 50 } },
    ]);
  });
});
