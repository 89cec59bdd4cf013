import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';

export type H = Awaited<ReturnType<typeof instanceTestApp>>;

/**
 * Admin requests and instance set-up against one test file's app. Each file passes its own: test
 * files share modules in a worker (isolate: false), so nothing here may keep an app.
 */
export function operationsCalls(app: () => H, admin: () => Record<string, string>) {
  const req = (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string> = admin(),
    payload?: object,
  ) => app().t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** A running pay-as-you-go instance of a user funded with `yuan` (L40S: 3.98 yuan/GPU/hour). */
  async function running(yuan: number, name = 'ops') {
    const h = app();
    const u = await h.funded(yuan);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: name,
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await h.view(u.headers, id)).status).toBe('RUNNING');
    return { ...u, id };
  }

  const heldGpus = async (instanceId: number) =>
    (await app().t.db.select().from(hostGpus).where(eq(hostGpus.instanceId, instanceId))).length;

  return { req, running, heldGpus };
}

/**
 * A test file's app on a fixed clock with an administrator signed in, opened before the file's
 * tests and closed after them, with its calls. `h()` and `admin()` read the current ones;
 * `renewAdmin()` signs in again (admin tokens last an hour: for after the clock moved).
 */
export function operationsSuite(start = '2026-11-22T08:00:00Z') {
  const clock = fixedClock(start);
  let h: H;
  let admin: Record<string, string>;
  beforeAll(async () => {
    h = await instanceTestApp(clock);
    admin = await h.t.adminHeaders();
  });
  afterAll(() => h.t.close());
  const renewAdmin = async () => {
    admin = await h.t.adminHeaders();
  };
  return {
    clock,
    h: () => h,
    admin: () => admin,
    renewAdmin,
    ...operationsCalls(
      () => h,
      () => admin,
    ),
  };
}
