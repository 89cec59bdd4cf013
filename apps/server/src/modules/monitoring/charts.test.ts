import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../test/instances.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { runRollup } from './rollup.usecases.ts';
import { createSamplesRepository } from './samples.repository.ts';

const GIB = 1024 ** 3;

const NOW = new Date('2026-11-26T12:00:07Z');
const clock = fixedClock(NOW);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let owner: Awaited<ReturnType<Awaited<ReturnType<typeof instanceTestApp>>['funded']>>;
let id: number;
let hostId: number;
let gpuIndex: number;
let hostGpuCount: number;

/** Two hours of samples, 10:00:00 to 12:00:00: the GPU alternates 100 / 0 (50 a minute), CPU 20. */
beforeAll(async () => {
  h = await instanceTestApp(clock);
  owner = await h.funded(500);
  const res = await h.create(owner.headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: 'charted',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  id = res.json().data.id;
  const [host] = await h.t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
  hostId = host?.id as number;
  hostGpuCount = await h.t.db.$count(hostGpus, eq(hostGpus.hostId, hostId));
  gpuIndex = (await heldGpusOf(h.t.db, id))[0] as number;
  const start = new Date('2026-11-26T10:00:00Z').getTime();
  const rows = Array.from({ length: 481 }, (_, k) => ({
    instanceId: id,
    at: new Date(start + k * 15_000),
    hostId,
    gpuIndexes: [gpuIndex],
    gpuUtil: [k % 2 === 0 ? 100 : 0],
    gpuMemUsedMib: [4000],
    gpuMemTotalMib: [46_068],
    cpuPercent: 20,
    memUsedBytes: 2 * GIB,
    memLimitBytes: 16 * GIB,
    diskUsedBytes: 3 * GIB,
    diskLimitBytes: 30 * GIB,
  }));
  await createSamplesRepository({ db: h.t.db }).record(rows);
  await runRollup({ db: h.t.db, clock });
});
afterAll(() => h.t.close());

const get = (url: string, headers: Record<string, string> = owner.headers) =>
  h.t.app.inject({ method: 'GET', url, headers });

describe('GET /api/gpu/instance/:uuid/metrics', () => {
  it('1h: the raw 15 s samples of the last hour (the default range)', async () => {
    for (const url of [`/api/gpu/instance/${id}/metrics?range=1h`, `/api/gpu/instance/${id}/metrics`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ range: '1h', stepSeconds: 15 });
      expect(data.points).toHaveLength(240);
      expect(data.points.at(-1)).toEqual({
        at: '2026-11-26T12:00:00.000Z',
        gpuUtil: [100],
        gpuMemUsedMib: [4000],
        gpuMemTotalMib: [46_068],
        cpuPercent: 20,
        memUsedBytes: 2 * GIB,
        memLimitBytes: 16 * GIB,
        diskUsedBytes: 3 * GIB,
        diskLimitBytes: 30 * GIB,
      });
    }
  });

  it('24h: one-minute averages; 7d: the 5-minute rollups; 30d: half-hour averages of them', async () => {
    const day = (await get(`/api/gpu/instance/${id}/metrics?range=24h`)).json().data;
    expect(day).toMatchObject({ range: '24h', stepSeconds: 60 });
    expect(day.points).toHaveLength(121);
    expect(day.points[0]).toMatchObject({ at: '2026-11-26T10:00:00.000Z', gpuUtil: [50], cpuPercent: 20 });
    const week = (await get(`/api/gpu/instance/${id}/metrics?range=7d`)).json().data;
    expect(week).toMatchObject({ range: '7d', stepSeconds: 300 });
    // Buckets 10:00 to 11:50; 11:55 is rolled up only a minute after it ends.
    expect(week.points.map((p: { at: string }) => p.at.slice(11, 16))).toEqual(
      Array.from({ length: 23 }, (_, k) =>
        new Date(Date.UTC(2026, 10, 26, 10, 5 * k)).toISOString().slice(11, 16),
      ),
    );
    expect(week.points[0]).toMatchObject({ gpuUtil: [50], gpuMemUsedMib: [4000], memLimitBytes: 16 * GIB });
    const month = (await get(`/api/gpu/instance/${id}/metrics?range=30d`)).json().data;
    expect(month).toMatchObject({ range: '30d', stepSeconds: 1800 });
    expect(month.points.map((p: { at: string }) => p.at)).toEqual([
      '2026-11-26T10:00:00.000Z',
      '2026-11-26T10:30:00.000Z',
      '2026-11-26T11:00:00.000Z',
      '2026-11-26T11:30:00.000Z',
    ]);
  });

  it('400 names the range; another user’s instance and a missing one are not found; no token is 401', async () => {
    expect((await get(`/api/gpu/instance/${id}/metrics?range=7d%00`)).statusCode).toBe(400);
    for (const range of ['2h', '', '1H']) {
      const res = await get(`/api/gpu/instance/${id}/metrics?range=${range}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('时间范围');
    }
    const bad = await get('/api/gpu/instance/abc/metrics');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('实例编号');
    const stranger = await h.funded(0);
    const theirs = await get(`/api/gpu/instance/${id}/metrics`, stranger.headers);
    expect(theirs.statusCode).toBe(404);
    expect((await get('/api/gpu/instance/999999/metrics')).statusCode).toBe(404);
    expect((await get(`/api/gpu/instance/${id}/metrics`, {})).statusCode).toBe(401);
  });
});

describe('GET /api/gpu/instances/gpu-sparklines', () => {
  it('the last hour per minute of each running instance’s busiest GPU; none for a user without', async () => {
    const res = await get('/api/gpu/instances/gpu-sparklines');
    expect(res.statusCode).toBe(200);
    const lines = res.json().data as { instanceUuid: string; points: number[] }[];
    expect(lines.map((l) => l.instanceUuid)).toEqual([String(id)]);
    expect(lines[0]?.points).toHaveLength(60);
    // 11:01 … 11:59 average 50; the current minute (12:00) has one sample so far, at 100.
    expect(lines[0]?.points.slice(0, 59)).toEqual(new Array(59).fill(50));
    expect(lines[0]?.points[59]).toBe(100);
    const stranger = await h.funded(0);
    expect((await get('/api/gpu/instances/gpu-sparklines', stranger.headers)).json().data).toEqual([]);
  });
});

describe('GET /api/admin/hosts/:id/metrics', () => {
  it('the host’s GPUs by index and its instances’ use, for admins with hosts:read', async () => {
    const admin = await h.t.adminHeaders();
    const res = await get(`/api/admin/hosts/${hostId}/metrics?range=1h`, admin);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ range: '1h', stepSeconds: 15, gpuCount: hostGpuCount });
    const last = data.points.at(-1);
    expect(last.gpuUtil).toHaveLength(hostGpuCount);
    expect(last.gpuUtil[gpuIndex]).toBe(100);
    expect(last.gpuUtil.filter((_: number, k: number) => k !== gpuIndex).every((u: number) => u === 0)).toBe(
      true,
    );
    expect(last).toMatchObject({ cpuPercent: 20, memUsedBytes: 2 * GIB, diskUsedBytes: 3 * GIB });
    expect(
      (await get(`/api/admin/hosts/${hostId}/metrics?range=30d`, admin)).json().data.points,
    ).toHaveLength(4);
    expect((await get('/api/admin/hosts/999999/metrics', admin)).statusCode).toBe(404);
    const wrong = await get(`/api/admin/hosts/${hostId}/metrics?range=1y`, admin);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('时间范围');
    expect((await get(`/api/admin/hosts/${hostId}/metrics`)).statusCode).toBe(401);
    // A tenant's operator has no hosts area.
    const operator = await h.t.adminHeaders('tenant-reader', { role: 'READONLY', tenantId: 1 });
    expect((await get(`/api/admin/hosts/${hostId}/metrics`, operator)).statusCode).toBe(403);
  });
});
