import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { IMAGE } from '../../test/instances.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';
import { invariantProblems, type twoReplicas } from './replicas.test-helpers.ts';

/** The PostgreSQL race tests' setup: two replicas on one database (see twoReplicas). */
export type Replicas = Awaited<ReturnType<typeof twoReplicas>>;
type Headers = Record<string, string>;
/** What a round made and must release at its end. */
export type Owned = Array<{ id: number; headers: Headers }>;

/** A pay-as-you-go create of `gpuAmount` GPUs on `host`, sent to one replica. */
export const createOn = (
  r: Replicas,
  app: ReturnType<Replicas['next']>,
  headers: Headers,
  host: string,
  name: string,
  gpuAmount = 1,
) => r.h.idOf(host).then((machineId) => createOnMachine(app, headers, machineId, name, gpuAmount));

/**
 * A create on a machine looked up beforehand: a race's requests start together. Looked up inside
 * the race, the market could already hide the host (no idle GPU: the rival took them first) and
 * the create went out without a machine.
 */
export const createOnMachine = (
  app: ReturnType<Replicas['next']>,
  headers: Headers,
  machineId: number,
  name: string,
  gpuAmount = 1,
) =>
  app.inject({
    method: 'POST',
    url: '/api/gpu/instance/create',
    headers,
    payload: { machineId, instanceName: name, image: IMAGE, gpuAmount, billingType: 'hourly' },
  });

/** GPUs of `host` that no instance holds and no one reserved. */
export async function idleGpusOn(r: Replicas, host: string) {
  const [row] = await r.h.t.db.select().from(hosts).where(eq(hosts.name, host));
  const idle = await r.h.t.db
    .select()
    .from(hostGpus)
    .where(
      and(
        eq(hostGpus.hostId, row?.id as number),
        isNull(hostGpus.instanceId),
        isNull(hostGpus.reservedReason),
      ),
    );
  return idle.length;
}

/**
 * A round's start: an owner's 1-GPU instance on `host`, run and powered off; then a filler takes
 * `fill.host`'s idle GPUs (`fill.gpus` a create) until `fill.leave` are left.
 */
export async function stoppedThenFilled(
  r: Replicas,
  o: {
    host: string;
    name: string;
    funded: number;
    fill: { host?: string; name: string; funded: number; gpus?: number; leave: number };
  },
) {
  const mine: Owned = [];
  const owner = await r.h.funded(o.funded);
  const made = await createOn(r, r.apps[0] as never, owner.headers, o.host, o.name);
  expect(made.statusCode, made.body).toBe(200);
  const id = made.json().data.id as number;
  mine.push({ id, headers: owner.headers });
  await r.drain();
  await r.h.action(owner.headers, 'power_off', id);
  const fillHost = o.fill.host ?? o.host;
  const filler = await r.h.funded(o.fill.funded);
  while ((await idleGpusOn(r, fillHost)) > o.fill.leave) {
    const f = await createOn(r, r.apps[0] as never, filler.headers, fillHost, o.fill.name, o.fill.gpus);
    expect(f.statusCode, f.body).toBe(200);
    mine.push({ id: f.json().data.id, headers: filler.headers });
  }
  await r.drain();
  return { owner, id, mine };
}

type User = Awaited<ReturnType<Replicas['h']['funded']>>;

/**
 * A clone and a create raced for the same last GPUs: exactly one got them, the other was refused
 * (409/422, a refused clone names the idle GPUs), no 5xx, the invariants hold, and only the winner
 * paid. A winning clone's row matches `cloneRow`. The winner joins `mine`.
 */
export async function expectOneOfCloneAndCreate(
  r: Replicas,
  o: {
    cloned: Awaited<ReturnType<typeof createOn>>;
    created: Awaited<ReturnType<typeof createOn>>;
    owner: User;
    rival: User;
    before: { owner: number; rival: number };
    mine: Owned;
    cloneRow: Record<string, unknown>;
  },
) {
  const { cloned, created, owner, rival, before, mine } = o;
  const answers = [cloned, created];
  expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  expect(answers.filter((a) => a.statusCode === 409 || a.statusCode === 422)).toHaveLength(1);
  expect(await invariantProblems(r.h.t.db)).toEqual([]);
  if (cloned.statusCode === 200) {
    const id = cloned.json().data.id as number;
    mine.push({ id, headers: owner.headers });
    const [row] = await r.h.t.db.select().from(instances).where(eq(instances.id, id));
    expect(row).toMatchObject(o.cloneRow);
    // The daily package charged once, the rival nothing.
    expect(await r.h.balance(owner.user.id)).toBeCloseTo(before.owner - (row?.charged as number) / 10_000, 4);
    expect(await r.h.balance(rival.user.id)).toBe(before.rival);
  } else {
    expect(cloned.json().message).toMatch(/空闲\s?GPU/);
    mine.push({ id: created.json().data.id as number, headers: rival.headers });
    expect(await r.h.balance(owner.user.id)).toBe(before.owner);
  }
}
