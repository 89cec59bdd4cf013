import { ORIGINAL_GPUS_TAKEN_MESSAGE } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { simulatedContainers } from '../../hosts/hosts.tables.ts';
import { invariantProblems } from '../replicas.test-helpers.ts';

const clock = fixedClock('2026-11-26T09:00:00Z');
const HOST = 'nm-a-l40s-01';
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const make = async (headers: Headers, name: string, billingType = 'hourly') => {
  const res = await h.create(headers, {
    machineId: await h.idOf(HOST),
    instanceName: name,
    image: IMAGE,
    gpuAmount: 1,
    billingType,
    ...(billingType === 'hourly' ? {} : { duration: 1 }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};
const powerOnAnyGpu = async (headers: Headers, id: number, query = '&gpus=any') => {
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/gpu/instance/power_on?instance_uuid=${id}${query}`,
    headers,
  });
  await h.t.app.deps.modules.instances.jobs.drain();
  return res;
};

describe('power on on other GPUs (issue 30)', () => {
  it('its GPUs taken while off: 409 offering other GPUs; with gpus=any it starts on them, disk kept', async () => {
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'moved');
    const before = await h.view(owner.headers, id);
    const [original] = await heldGpusOf(h.t.db, id);
    await h.t.db
      .update(simulatedContainers)
      .set({ files: { '/root/model.pt': 'weights' } })
      .where(eq(simulatedContainers.id, before.containerId as string));
    await h.action(owner.headers, 'power_off', id);
    // Someone else's create takes the GPU it left (the lowest idle one).
    const other = await h.funded(100);
    const taker = await make(other.headers, 'taker');
    expect(await heldGpusOf(h.t.db, taker)).toEqual([original]);

    const refused = await h.action(owner.headers, 'power_on', id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ORIGINAL_GPUS_TAKEN_MESSAGE);
    expect((await h.view(owner.headers, id)).status).toBe('STOPPED');
    expect((await powerOnAnyGpu(owner.headers, id, '&gpus=some')).statusCode).toBe(400);

    const moved = await powerOnAnyGpu(owner.headers, id);
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await h.view(owner.headers, id);
    expect(after.status).toBe('RUNNING');
    const [now] = await heldGpusOf(h.t.db, id);
    expect(now).not.toBe(original);
    // The container was recreated on the new GPU, its system disk carried over.
    expect(after.containerId).not.toBe(before.containerId);
    const [container] = await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, after.containerId as string));
    expect(container?.gpuIndices).toEqual([now]);
    expect(container?.files).toMatchObject({ '/root/model.pt': 'weights' });
    expect(await invariantProblems(h.t.db)).toEqual([]);
  });

  it('with its own GPUs free, gpus=any starts the same container on them', async () => {
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'stays');
    const before = await h.view(owner.headers, id);
    const gpus = await heldGpusOf(h.t.db, id);
    await h.action(owner.headers, 'power_off', id);
    expect((await powerOnAnyGpu(owner.headers, id)).statusCode).toBe(200);
    expect(await heldGpusOf(h.t.db, id)).toEqual(gpus);
    expect((await h.view(owner.headers, id)).containerId).toBe(before.containerId);
  });
});
