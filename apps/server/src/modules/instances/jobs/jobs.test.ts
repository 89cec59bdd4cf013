import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { createRequestLoad } from '../../../platform/request-load.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { createInstance } from '../create/create.usecases.ts';
import { instances } from '../instances.tables.ts';
import { createInstanceJobs } from './jobs.usecases.ts';

const clock = fixedClock(new Date('2026-11-25T08:00:00Z'));
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

/** A machine with a GPU left (each test takes one and keeps it). */
const freeMachine = async () => {
  const m = (await h.market()).find((i) => i.hostName.startsWith('ah-a-4090') && i.gpuIdleNum > 0);
  if (!m) throw new Error('no idle GPU left on the 4090 host');
  return m.id;
};
const statusOf = async (id: number) =>
  (await h.t.db.select({ s: instances.status }).from(instances).where(eq(instances.id, id)))[0]?.s;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until the instance leaves CREATING (its job ran), or gives up after 5 s. */
async function settledStatus(id: number) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const s = await statusOf(id);
    if (s !== 'CREATING' || Date.now() > deadline) return s;
    await sleep(10);
  }
}

/** This process's instance jobs, yielding to `load` for at most `maxYieldMs`. */
const jobsYieldingTo = (load: ReturnType<typeof createRequestLoad>, maxYieldMs: number) =>
  createInstanceJobs(
    () => h.deps,
    (err) => expect.fail(String(err)),
    { gate: load, maxYieldMs },
  );

/** A committed create whose job was not kicked: CREATING until some job runs it. */
async function creating() {
  const u = await h.funded(100);
  const tenant = await h.t.app.deps.modules.tenants.service.resolve('localhost');
  const inst = await createInstance(
    { ...h.deps, jobs: { kick: () => undefined } },
    { id: u.user.id, tenantId: u.user.tenantId, sessionId: 'test', accessToken: null },
    tenant,
    {
      machineId: await freeMachine(),
      instanceName: 'yield',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
      duration: 1,
    },
  );
  return inst.id;
}

describe('instance jobs yield to requests in flight', () => {
  it('a job kicked while a request is in flight starts when the last request closes', async () => {
    const load = createRequestLoad();
    const jobs = jobsYieldingTo(load, 60_000);
    const id = await creating();
    load.begin();
    load.begin();
    jobs.kick(id);
    await sleep(100);
    expect(await statusOf(id)).toBe('CREATING');
    load.end();
    await sleep(100);
    expect(await statusOf(id)).toBe('CREATING');
    load.end();
    expect(await settledStatus(id)).toBe('RUNNING');
  });

  it('a job waits for requests no longer than its bound', async () => {
    const load = createRequestLoad();
    const jobs = jobsYieldingTo(load, 300);
    const id = await creating();
    load.begin(); // never ends: a steady stream of requests
    const kicked = performance.now();
    jobs.kick(id);
    await sleep(50);
    expect(await statusOf(id)).toBe('CREATING');
    expect(await settledStatus(id)).toBe('RUNNING');
    expect(performance.now() - kicked).toBeGreaterThanOrEqual(300);
  });

  it('drain starts the jobs that are yielding (tests, shutdown)', async () => {
    const load = createRequestLoad();
    const jobs = jobsYieldingTo(load, 60_000);
    const id = await creating();
    load.begin();
    jobs.kick(id);
    await jobs.drain();
    expect(await statusOf(id)).toBe('RUNNING');
  });

  it('the app counts each request until it closes, answered or refused', async () => {
    const requests = h.t.app.deps.core.requests;
    const u = await h.funded(100);
    const answers = await Promise.all([
      h.t.app.inject({ method: 'GET', url: '/api/health' }),
      h.t.app.inject({ method: 'GET', url: '/api/auth/me', headers: u.headers }),
      h.t.app.inject({ method: 'GET', url: '/api/auth/me' }),
      h.t.app.inject({ method: 'POST', url: '/api/gpu/instance/create', headers: u.headers, payload: {} }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 400]);
    await sleep(0);
    expect(requests.active).toBe(0);
    // And a job kicked by a create starts once its answer is out, with nothing else in flight.
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/gpu/instance/create',
      headers: u.headers,
      payload: {
        machineId: await freeMachine(),
        instanceName: 'counted',
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await settledStatus(res.json().data.id)).toBe('RUNNING');
  });
});
