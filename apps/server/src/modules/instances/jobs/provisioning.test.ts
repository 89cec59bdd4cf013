import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { gpuSkus } from '../../hosts/catalog.tables.ts';
import type { ContainerSpec } from '../../hosts/drivers/host-driver.ts';
import { buildInstanceContainerSpec, containerNameOf } from '../../hosts/drivers/instance-spec.ts';
import { createHostsRepository } from '../../hosts/hosts.repository.ts';
import { hostGpus, hostPorts, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { createInstance } from '../create/create.usecases.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { instances } from '../instances.tables.ts';
import { runReconcile, STUCK_AFTER_MS } from '../tasks/reconcile.ts';
import { runInstanceJob as provisionInstance, runJobSweep as runProvisioning } from './jobs.usecases.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const HOST = 'bj-a-a100-01';
const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
const containersOf = (id: number) =>
  h.t.db
    .select()
    .from(simulatedContainers)
    .where(eq(simulatedContainers.name, containerNameOf(id)));
const held = async (id: number) => ({
  gpus: await h.t.db.$count(hostGpus, eq(hostGpus.instanceId, id)),
  ports: await h.t.db.$count(hostPorts, eq(hostPorts.instanceId, id)),
});
const driverOf = async (name = HOST) =>
  h.deps.hostDrivers.forHost((await createHostsRepository(h.deps).findByName(name)) as never);

/** What a crash right after the create transaction leaves: CREATING, paid, GPUs held, no job ran. */
async function committedCreate(yuan = 1000, gpuAmount = 1) {
  const u = await h.funded(yuan);
  const tenant = await h.t.app.deps.modules.tenants.service.resolve('localhost');
  const inst = await createInstance(
    { ...h.deps, jobs: { kick: () => undefined } },
    { id: u.user.id, tenantId: u.user.tenantId, sessionId: 'test', accessToken: null },
    tenant,
    {
      machineId: await h.idOf(HOST),
      instanceName: 'crash',
      image: IMAGE,
      gpuAmount,
      billingType: 'daily',
      duration: 1,
    } as never,
  );
  return { u, id: inst.id };
}

describe('provisioning job', () => {
  it('a create whose job never ran is taken to RUNNING by the sweep; the charge stands', async () => {
    clock.set(T0);
    const { u, id } = await committedCreate();
    expect((await row(id))?.status).toBe('CREATING');
    expect(await h.balance(u.user.id)).toBe(1000 - 135);
    const sweep = await runProvisioning(h.deps);
    expect(sweep.outcomes).toContainEqual({ id, to: 'RUNNING' });
    const r = await row(id);
    expect(r).toMatchObject({ status: 'RUNNING', claimedUntil: null, transitionAt: null });
    const [c] = await containersOf(id);
    expect(c).toMatchObject({ id: r?.containerId, state: 'running' });
    expect(await h.balance(u.user.id)).toBe(1000 - 135);
    expect((await runProvisioning(h.deps)).outcomes.filter((o) => o.id === id)).toEqual([]);
    await h.action(u.headers, 'release', id);
  });

  it('fences the container by its SKU: memory and processes per GPU × GPUs, its own network', async () => {
    clock.set(T0);
    const { u, id } = await committedCreate(1000, 2);
    expect(await provisionInstance(h.deps, id)).toBe('RUNNING');
    const inst = await row(id);
    const [sku] = await h.t.db
      .select()
      .from(gpuSkus)
      .where(eq(gpuSkus.id, inst?.skuId as number));
    expect(sku?.memoryPerGpuGb).toBeGreaterThan(0);
    const [c] = await containersOf(id);
    expect(c?.memoryGb).toBe((sku?.memoryPerGpuGb as number) * 2);
    expect(c?.isolation).toEqual({
      pidsLimit: 2 * 4096,
      memoryBytes: (sku?.memoryPerGpuGb as number) * 2 * 1024 ** 3,
      noNewPrivileges: true,
      capDrop: ['ALL'],
      capAdd: expect.arrayContaining(['NET_BIND_SERVICE', 'SYS_CHROOT', 'SETUID']),
      networks: [containerNameOf(id)],
    });
    await h.action(u.headers, 'release', id);
  });

  it("gives JupyterLab a token of its own: the container's JUPYTER_TOKEN is what the owner is shown, not the root password", async () => {
    clock.set(T0);
    const specs: ContainerSpec[] = [];
    const registry = h.deps.hostDrivers;
    const forHost = registry.forHost;
    registry.forHost = (host) => {
      const driver = forHost.call(registry, host);
      return {
        ...driver,
        create: (spec) => {
          specs.push(spec);
          return driver.create(spec);
        },
      };
    };
    try {
      const { u, id } = await committedCreate();
      expect(await provisionInstance(h.deps, id)).toBe('RUNNING');
      const view = await h.view(u.headers, id);
      const env = specs.find((s) => s.instanceId === id)?.env;
      expect(view.jupyterToken).toMatch(/^[0-9a-f]{48}$/);
      expect(env?.JUPYTER_TOKEN).toBe(view.jupyterToken);
      expect(env?.ROOT_PASSWORD).toBe(view.sshPassword);
      expect(view.jupyterToken).not.toBe(view.sshPassword);
      // Sealed at rest, like the password.
      const stored = await row(id);
      expect(stored?.jupyterTokenEnc).toBeTruthy();
      expect(stored?.jupyterTokenEnc).not.toContain(view.jupyterToken as string);
      // An instance made before tokens of their own: its container took the root password.
      await h.t.db.update(instances).set({ jupyterTokenEnc: null }).where(eq(instances.id, id));
      expect((await h.view(u.headers, id)).jupyterToken).toBe(view.sshPassword);
      await h.action(u.headers, 'release', id);
    } finally {
      registry.forHost = forHost;
    }
  });

  it('adopts the container made before a crash (its id never saved): one container, RUNNING', async () => {
    clock.set(T0);
    const { u, id } = await committedCreate();
    const inst = await row(id);
    const [sku] = await h.t.db
      .select()
      .from(gpuSkus)
      .where(eq(gpuSkus.id, inst?.skuId as number));
    const made = await (await driverOf()).create(
      buildInstanceContainerSpec({
        instanceId: id,
        userId: inst?.userId as number,
        image: IMAGE,
        gpuIndices: inst?.gpuIndices as number[],
        ports: [inst?.sshPort as number, inst?.jupyterPort as number],
        sku: sku as never,
        rootPassword: 'pw',
        jupyterToken: 'tok',
      }),
    );
    expect((await row(id))?.containerId).toBeNull();
    expect(await provisionInstance(h.deps, id)).toBe('RUNNING');
    expect((await row(id))?.containerId).toBe(made.containerId);
    expect((await containersOf(id)).map((c) => c.id)).toEqual([made.containerId]);
    await h.action(u.headers, 'release', id);
  });

  it('never lets two workers drive one instance; an expired claim is taken over', async () => {
    clock.set(T0);
    const { u, id } = await committedCreate();
    const repo = createInstancesRepository(h.deps);
    const until = new Date(T0.getTime() + 3 * STUCK_AFTER_MS);
    // A live worker elsewhere holds it: sweeps, reconcile and a second kick all leave it alone.
    expect(await repo.claim(id, T0, until)).toBeDefined();
    expect(await repo.claim(id, T0, new Date(T0.getTime() + 1))).toBeUndefined();
    const both = await Promise.all([provisionInstance(h.deps, id), provisionInstance(h.deps, id)]);
    expect(both).toEqual([null, null]);
    clock.set(new Date(T0.getTime() + STUCK_AFTER_MS + 1000));
    // Before: reconcile failed and refunded a create still in progress after 2 minutes.
    expect((await runReconcile(h.deps)).outcomes.filter((o) => o.id === id)).toEqual([]);
    expect((await row(id))?.status).toBe('CREATING');
    // The claim expired: that worker died. Two takers at once: exactly one drives it.
    clock.set(new Date(until.getTime() + 1));
    const takers = await Promise.all([provisionInstance(h.deps, id), provisionInstance(h.deps, id)]);
    expect(takers.sort()).toEqual(['RUNNING', null].sort());
    expect(await containersOf(id)).toHaveLength(1);
    await h.action(u.headers, 'release', id);
  });

  it('a host that refuses: FAILED, refunded exactly once, GPUs kept until the container is known gone', async () => {
    clock.set(T0);
    const { u, id } = await committedCreate(500, 2);
    await h.setHostSettings(HOST, '{"unreachable":true}');
    try {
      expect(await provisionInstance(h.deps, id)).toBe('FAILED');
      expect(await h.balance(u.user.id)).toBe(500);
      expect(await held(id)).toEqual({ gpus: 2, ports: 2 });
      expect((await runReconcile(h.deps)).freed).not.toContain(id);
    } finally {
      await h.setHostSettings(HOST, '{"unreachable":false}');
    }
    expect((await runReconcile(h.deps)).freed).toEqual([id]);
    expect(await held(id)).toEqual({ gpus: 0, ports: 0 });
    await runReconcile(h.deps);
    expect(await h.balance(u.user.id)).toBe(500);
    const refunds = await h.t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, u.user.id), eq(ledgerEntries.kind, 'refund')));
    expect(refunds).toHaveLength(1);
  });
});

describe('reconcile: containers the database does not want', () => {
  it('removes a failed instance’s leftover container and an unknown instance’s, and frees what they held', async () => {
    clock.set(T0);
    const { id } = await committedCreate();
    expect(await provisionInstance(h.deps, id)).toBe('RUNNING');
    // As if the failure path crashed after FAILED and before its container was removed.
    await h.t.db.update(instances).set({ status: 'FAILED' }).where(eq(instances.id, id));
    const driver = await driverOf();
    const stray = await driver.create({
      name: 'gpu-inst-987654',
      image: IMAGE,
      instanceId: 987_654,
      gpuIndices: [],
      ports: [],
      env: {},
    });
    const rec = await runReconcile(h.deps);
    expect(rec.freed).toEqual([id]);
    expect(await containersOf(id)).toEqual([]);
    expect(await held(id)).toEqual({ gpus: 0, ports: 0 });
    expect(rec.orphansRemoved).toContain(987_654);
    await expect(driver.inspect(stray.containerId)).rejects.toThrow();
    // Running instances' containers are untouched.
    const live = await h.t.db.select().from(instances).where(eq(instances.status, 'RUNNING'));
    for (const i of live) expect(await containersOf(i.id)).toHaveLength(1);
    expect(await h.t.db.$count(simulatedContainers, like(simulatedContainers.name, 'gpu-inst-%'))).toBe(
      live.length,
    );
  });
});
