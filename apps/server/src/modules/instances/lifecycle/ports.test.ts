import type { Instance } from '@gpu/shared';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hostPorts, hosts, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { invariantProblems } from '../replicas.test-helpers.ts';
import { runReconcile } from '../tasks/reconcile.ts';

const clock = fixedClock('2026-11-26T08:00:00Z');
const HOST = 'nm-a-l40s-01';
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const body = async (extra: object = {}) => ({
  machineId: await h.idOf(HOST),
  instanceName: 'ports',
  image: IMAGE,
  gpuAmount: 1,
  billingType: 'hourly',
  ...extra,
});
const make = async (headers: Headers, extraPorts: unknown) => {
  const res = await h.create(headers, await body({ extraPorts }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};
const setPorts = (headers: Headers, id: number, payload: unknown) =>
  h.t.app.inject({
    method: 'PUT',
    url: `/api/gpu/instance/${id}/ports`,
    headers,
    payload: payload as object,
  });
/** Host ports the pool holds for the instance, ascending. */
const heldPorts = async (id: number) =>
  (await h.t.db.select().from(hostPorts).where(eq(hostPorts.instanceId, id))).map((p) => p.port).sort();
const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
const hostOf = async () => (await h.t.db.select().from(hosts).where(eq(hosts.name, HOST)))[0];
const containerPorts = async (view: Instance) =>
  (
    await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, view.containerId as string))
  )[0]?.ports.map((p) => ({ containerPort: p.containerPort, hostPort: p.hostPort }));

describe('extra service ports', () => {
  it('refuses bad lists with 400 naming the field, and creates nothing', async () => {
    const u = await h.funded(100);
    const before = await h.t.db.$count(instances);
    for (const extraPorts of [
      [22],
      [8888],
      [6006, 6006],
      [0],
      [65_536],
      [1.5],
      [1, 2, 3, 4],
      'x',
      ['6006'],
    ]) {
      const res = await h.create(u.headers, await body({ extraPorts }));
      expect(res.statusCode, JSON.stringify(extraPorts)).toBe(400);
      expect(res.json().message).toContain('额外端口');
    }
    expect(await h.t.db.$count(instances)).toBe(before);
  });

  it('maps each extra port on a host port of the pool, binds it in the container and shows its link', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, [6006, 7860]);
    const view = await h.view(u.headers, id);
    const host = await hostOf();
    expect(view.status).toBe('RUNNING');
    expect(view.extraPorts.map((p) => p.containerPort)).toEqual([6006, 7860]);
    const [tb, gradio] = view.extraPorts;
    expect(tb?.url).toBe(`http://${host?.publicAddress}:${tb?.hostPort}`);
    const r = await row(id);
    const all = [r?.sshPort, r?.jupyterPort, tb?.hostPort, gradio?.hostPort] as number[];
    expect(new Set(all).size).toBe(4);
    expect(await heldPorts(id)).toEqual([...all].sort());
    for (const p of all) {
      expect(p).toBeGreaterThanOrEqual(host?.portRangeStart as number);
      expect(p).toBeLessThanOrEqual(host?.portRangeEnd as number);
    }
    expect(await containerPorts(view)).toEqual([
      { containerPort: 22, hostPort: r?.sshPort },
      { containerPort: 8888, hostPort: r?.jupyterPort },
      { containerPort: 6006, hostPort: tb?.hostPort },
      { containerPort: 7860, hostPort: gradio?.hostPort },
    ]);

    // Released: every port goes back to the pool, the extra ones too.
    await h.action(u.headers, 'release', id);
    expect(await heldPorts(id)).toEqual([]);
    expect((await h.view(u.headers, id)).extraPorts.every((p) => p.url === null)).toBe(true);
    expect(await invariantProblems(h.t.db)).toEqual([]);
  });

  it('changes them only while powered off: kept ports keep their host port, dropped ones go back', async () => {
    const u = await h.funded(100);
    const other = await h.funded(100);
    const id = await make(u.headers, [6006, 7860]);
    const first = (await h.view(u.headers, id)).extraPorts;
    const running = await setPorts(u.headers, id, { ports: [8000] });
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toContain('请先关机');
    expect((await row(id))?.extraPorts).toEqual(
      first.map(({ containerPort, hostPort }) => ({ containerPort, hostPort })),
    );

    await h.action(u.headers, 'power_off', id);
    expect((await setPorts(other.headers, id, { ports: [8000] })).statusCode).toBe(404);
    const bad = await setPorts(u.headers, id, { ports: [22] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('额外端口');

    const res = await setPorts(u.headers, id, { ports: [8000, 6006] });
    expect(res.statusCode, res.body).toBe(200);
    const now = res.json().data.extraPorts as Instance['extraPorts'];
    expect(now.map((p) => p.containerPort)).toEqual([8000, 6006]);
    expect(now[1]?.hostPort).toBe(first[0]?.hostPort);
    const r = await row(id);
    expect(await heldPorts(id)).toEqual(
      [r?.sshPort, r?.jupyterPort, ...now.map((p) => p.hostPort)].sort() as number[],
    );
    const dropped = first[1]?.hostPort as number;
    const [freed] = await h.t.db
      .select()
      .from(hostPorts)
      .where(and(eq(hostPorts.port, dropped), eq(hostPorts.hostId, r?.hostId as number)));
    // Back in the pool, or (lowest free port first) taken again for 8000: never held for nothing.
    const fate = freed?.instanceId === null ? 'free' : now[0]?.hostPort === dropped ? 'reused' : 'leaked';
    expect(fate).not.toBe('leaked');

    // None at all is a list too.
    expect((await setPorts(u.headers, id, { ports: [] })).json().data.extraPorts).toEqual([]);
    expect(await heldPorts(id)).toHaveLength(2);
    await h.action(u.headers, 'release', id);
    expect(await heldPorts(id)).toEqual([]);
  });

  it('ports changed while off reach the container at the next power on (recreated, its disk kept)', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, [6006]);
    const before = await h.view(u.headers, id);
    // Something on the system disk, which the recreate must keep.
    await h.t.db
      .update(simulatedContainers)
      .set({ files: { '/root/notes.txt': 'kept' } })
      .where(eq(simulatedContainers.id, before.containerId as string));
    await h.action(u.headers, 'power_off', id);
    expect((await setPorts(u.headers, id, { ports: [7860] })).statusCode).toBe(200);
    await h.action(u.headers, 'power_on', id);
    const after = await h.view(u.headers, id);
    expect(after.status).toBe('RUNNING');
    expect(after.containerId).not.toBe(before.containerId);
    const r = await row(id);
    expect(await containerPorts(after)).toEqual([
      { containerPort: 22, hostPort: r?.sshPort },
      { containerPort: 8888, hostPort: r?.jupyterPort },
      { containerPort: 7860, hostPort: after.extraPorts[0]?.hostPort },
    ]);
    const [container] = await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, after.containerId as string));
    expect(container?.files).toMatchObject({ '/root/notes.txt': 'kept' });
    // Unchanged ports: the next power on starts the same container.
    await h.action(u.headers, 'power_off', id);
    await h.action(u.headers, 'power_on', id);
    expect((await h.view(u.headers, id)).containerId).toBe(after.containerId);
    await h.action(u.headers, 'release', id);
    expect(await invariantProblems(h.t.db)).toEqual([]);
  });

  it('an exhausted pool refuses with 409 and changes nothing', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, [6006]);
    await h.action(u.headers, 'power_off', id);
    const before = await row(id);
    const host = await hostOf();
    // Every free port of the host taken, as if by a neighbour.
    const filler = await make((await h.funded(100)).headers, []);
    const taken = await h.t.db
      .update(hostPorts)
      .set({ instanceId: filler })
      .where(and(eq(hostPorts.hostId, host?.id as number), isNull(hostPorts.instanceId)))
      .returning({ port: hostPorts.port });
    // Ports of the range never written yet would be topped up: shrink the range to what exists.
    await h.t.db
      .update(hosts)
      .set({ portRangeEnd: Math.max(...taken.map((p) => p.port), before?.jupyterPort as number) })
      .where(eq(hosts.id, host?.id as number));
    try {
      const res = await setPorts(u.headers, id, { ports: [6006, 7860, 8000] });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('端口已分配完');
      expect((await row(id))?.extraPorts).toEqual(before?.extraPorts);
      expect(await heldPorts(id)).toHaveLength(3);
      const create = await h.create(u.headers, await body({ extraPorts: [6006] }));
      expect(create.statusCode).toBe(409);
      expect(create.json().message).toContain('端口已分配完');
    } finally {
      await h.t.db
        .update(hostPorts)
        .set({ instanceId: null })
        .where(
          and(
            eq(hostPorts.hostId, host?.id as number),
            inArray(
              hostPorts.port,
              taken.map((p) => p.port),
            ),
          ),
        );
      await h.t.db
        .update(hosts)
        .set({ portRangeEnd: host?.portRangeEnd as number })
        .where(eq(hosts.id, host?.id as number));
    }
  });

  it('a host whose provider maps the ports (vast.ai) refuses extra ports with 422', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, []);
    await h.action(u.headers, 'power_off', id);
    const host = await hostOf();
    // The same host seen as a provider's: only its capabilities decide.
    await h.t.db
      .update(hosts)
      .set({ driver: 'vastai' })
      .where(eq(hosts.id, host?.id as number));
    try {
      const change = await setPorts(u.headers, id, { ports: [6006] });
      expect(change.statusCode).toBe(422);
      expect(change.json().message).toContain('额外端口');
      const create = await h.create(u.headers, await body({ extraPorts: [6006] }));
      expect(create.statusCode).toBe(422);
      expect(create.json().message).toContain('不支持额外端口');
    } finally {
      await h.t.db
        .update(hosts)
        .set({ driver: 'simulated' })
        .where(eq(hosts.id, host?.id as number));
    }
    expect(await heldPorts(id)).toHaveLength(2);
    await h.action(u.headers, 'release', id);
  });

  it('a failed create gives its extra ports back with the others', async () => {
    const u = await h.funded(100);
    await h.setHostSettings(HOST, '{"failureRate":1}');
    let id: number;
    try {
      id = await make(u.headers, [6006, 7860, 8000]);
      expect((await h.view(u.headers, id)).status).toBe('FAILED');
    } finally {
      await h.setHostSettings(HOST, '{"failureRate":0}');
    }
    await runReconcile(h.deps);
    expect(await heldPorts(id)).toEqual([]);
    expect(await invariantProblems(h.t.db)).toEqual([]);
  });
});
