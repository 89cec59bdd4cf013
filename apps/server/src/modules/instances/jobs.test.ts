import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.ts';
import { createRequestLoad } from '../../app/request-load.ts';
import { createInstance } from './create.usecases.ts';
import { instances } from './instances.tables.ts';
import { IMAGE, instanceTestApp } from './instances.test-helpers.ts';
import { createInstanceJobs, JOB_DEFER_MAX_MS } from './jobs.usecases.ts';

let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(systemClock);
});
afterAll(() => h.t.close());

const statusOf = async (id: number) =>
  (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0]?.status;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A committed create whose job nobody kicked (the runner under test gets it). */
async function committedCreate() {
  const u = await h.funded(1000);
  const tenant = await h.t.app.deps.services.tenants.resolve('localhost');
  const inst = await createInstance(
    { ...h.deps, jobs: { kick: () => undefined } },
    { id: u.user.id, tenantId: u.user.tenantId, sessionId: 'test' },
    tenant,
    {
      machineId: await h.idOf('bj-a-a100-01'),
      instanceName: 'deferred',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    } as never,
  );
  return inst.id;
}

describe('instance jobs wait while the process answers a burst of requests', () => {
  it('a kicked job waits while busy and runs once the requests are answered', async () => {
    let busy = true;
    const jobs = createInstanceJobs(
      () => h.deps,
      () => undefined,
      { busy: () => busy },
    );
    const id = await committedCreate();
    jobs.kick(id);
    await sleep(300);
    expect(await statusOf(id)).toBe('CREATING');
    busy = false;
    await expect.poll(() => statusOf(id), { timeout: 5_000 }).toBe('RUNNING');
  });

  it('never waits longer than JOB_DEFER_MAX_MS however busy the process stays', async () => {
    const jobs = createInstanceJobs(
      () => h.deps,
      () => undefined,
      { busy: () => true },
    );
    const id = await committedCreate();
    const kicked = performance.now();
    jobs.kick(id);
    await expect
      .poll(() => statusOf(id), { timeout: JOB_DEFER_MAX_MS + 5_000, interval: 100 })
      .toBe('RUNNING');
    expect(performance.now() - kicked).toBeGreaterThanOrEqual(JOB_DEFER_MAX_MS - 50);
  });

  it('drain runs queued jobs at once, busy or not (tests, shutdown)', async () => {
    const jobs = createInstanceJobs(
      () => h.deps,
      () => undefined,
      { busy: () => true },
    );
    const id = await committedCreate();
    jobs.kick(id);
    const started = performance.now();
    await jobs.drain();
    expect(await statusOf(id)).toBe('RUNNING');
    expect(performance.now() - started).toBeLessThan(JOB_DEFER_MAX_MS);
  });
});

describe('request load', () => {
  it('counts a request until its response closes, answered or aborted', async () => {
    const load = createRequestLoad(2);
    const open: ServerResponse[] = [];
    const server = createServer((_req, res) => {
      load.track(res);
      open.push(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const send = () => {
      const req = httpRequest({ port, host: '127.0.0.1', path: '/' });
      req.on('error', () => undefined);
      req.end();
      return req;
    };
    const first = send();
    await expect.poll(() => load.inFlight()).toBe(1);
    expect(load.busy()).toBe(false);
    const second = send();
    await expect.poll(() => load.inFlight()).toBe(2);
    expect(load.busy()).toBe(true);
    second.destroy(); // the client gives up: 'close' still comes
    await expect.poll(() => load.inFlight()).toBe(1);
    open[0]?.end('ok'); // the first is answered
    await expect.poll(() => load.inFlight()).toBe(0);
    first.destroy();
    server.close();
  });

  it("the app counts each request it is answering (buildServer's hook)", async () => {
    const res = await h.t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    await expect.poll(() => h.t.app.deps.requestLoad.inFlight()).toBe(0);
  });
});
