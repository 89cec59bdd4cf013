import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../test/instances.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { setSimulatedGpuLoad } from '../hosts/index.ts';
import { instanceSamples } from './monitoring.tables.ts';
import { createSamplesRepository } from './samples.repository.ts';
import { runSampling } from './sampling.usecases.ts';

const clock = fixedClock('2026-11-26T08:00:07Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let id: number;
let headers: Record<string, string>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  const u = await h.funded(500);
  headers = u.headers;
  const res = await h.create(u.headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: 'watched',
    image: IMAGE,
    gpuAmount: 2,
    billingType: 'hourly',
  });
  id = res.json().data.id;
  expect((await h.view(headers, id)).status).toBe('RUNNING');
});
afterAll(() => h.t.close());

const deps = () => h.t.app.deps.modules.monitoring;
const samplesOf = (instanceId: number) =>
  h.t.db
    .select()
    .from(instanceSamples)
    .where(eq(instanceSamples.instanceId, instanceId))
    .orderBy(instanceSamples.at);

describe('monitoring.sample', () => {
  it('samples every running instance once per 15 s slot, however many runs (or replicas) there are', async () => {
    const [first, second] = await Promise.all([runSampling(deps()), runSampling(deps())]);
    expect(first.at).toBe('2026-11-26T08:00:00.000Z');
    expect(second.at).toBe(first.at);
    clock.advance(5_000); // same slot: the host is not asked again
    const third = await runSampling(deps());
    expect(third.samples).toBe(0);
    expect(third.skippedHosts).toBeGreaterThan(0);
    const rows = await samplesOf(id);
    expect(rows).toHaveLength(1);
    const [host] = await h.t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
    expect(rows[0]).toMatchObject({ at: new Date('2026-11-26T08:00:00Z'), hostId: host?.id });
    // The instance's GPUs by host index, with per-GPU figures in range and limits from its SKU.
    expect(rows[0]?.gpuIndexes).toEqual(await heldGpusOf(h.t.db, id));
    expect(rows[0]?.gpuUtil).toHaveLength(2);
    for (const u of rows[0]?.gpuUtil ?? []) expect(u).toBeGreaterThanOrEqual(0);
    expect(rows[0]?.gpuMemTotalMib.every((m) => m > 0)).toBe(true);
    expect(rows[0]?.memLimitBytes).toBeGreaterThan(0);
    expect(rows[0]?.diskLimitBytes).toBeGreaterThan(0);

    clock.advance(10_000); // next slot
    await runSampling(deps());
    expect((await samplesOf(id)).map((r) => r.at.toISOString())).toEqual([
      '2026-11-26T08:00:00.000Z',
      '2026-11-26T08:00:15.000Z',
    ]);
  });

  it('follows a load the test steers: idle, then busy, as the idle guard reads it', async () => {
    expect(await setSimulatedGpuLoad(h.t.db, id, 0)).toBe(1);
    const idleFrom = new Date(Math.floor(clock.now().getTime() / 15_000) * 15_000 + 15_000);
    for (let k = 0; k < 4; k++) {
      clock.advance(15_000);
      await runSampling(deps());
    }
    const samples = createSamplesRepository(deps());
    expect((await samples.gpuActivitySince([id], idleFrom)).get(id)).toMatchObject({
      maxUtil: 0,
      samples: 4,
    });
    await setSimulatedGpuLoad(h.t.db, id, 88);
    clock.advance(15_000);
    await runSampling(deps());
    const last = (await samplesOf(id)).at(-1);
    expect(last?.gpuUtil).toEqual([88, 88]);
    expect((await samples.gpuActivitySince([id], idleFrom)).get(id)?.maxUtil).toBe(88);
    await setSimulatedGpuLoad(h.t.db, id, null);
  });

  it('goes on past a host that cannot be reached, and leaves stopped instances out', async () => {
    await h.setHostSettings('nm-a-l40s-01', '{"unreachable":true}');
    clock.advance(15_000);
    const r = await runSampling(deps());
    expect(r.failed).toBeGreaterThan(0);
    await h.setHostSettings('nm-a-l40s-01', '{"unreachable":false}');
    const before = (await samplesOf(id)).length;
    await h.action(headers, 'power_off', id);
    clock.advance(15_000);
    await runSampling(deps());
    expect(await samplesOf(id)).toHaveLength(before);
    const at = new Date(Math.floor(clock.now().getTime() / 15_000) * 15_000);
    expect(
      await h.t.db
        .select()
        .from(instanceSamples)
        .where(and(eq(instanceSamples.instanceId, id), eq(instanceSamples.at, at))),
    ).toEqual([]);
  });
});
