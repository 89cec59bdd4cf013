import { and, asc, eq } from 'drizzle-orm';
import type { fixedClock } from '../../platform/clock.ts';
import { IMAGE, type instanceTestApp } from '../../test/instances.ts';
import { instanceEvents } from '../instances/instances.tables.ts';
import { createSamplesRepository } from '../monitoring/index.ts';
import { userNotices } from '../notices/notices.tables.ts';
import { runGuardsCheck } from './tasks/check.task.ts';

type H = Awaited<ReturnType<typeof instanceTestApp>>;
type Clock = ReturnType<typeof fixedClock>;
export const MIN = 60_000;
export const HOST = 'nm-a-l40s-01';

/** Guard-test helpers on an instance test app: a running instance, samples as time passes, checks. */
export function guardsHelpers(h: H, clock: Clock) {
  const samples = createSamplesRepository({ db: h.t.db });
  const check = async () => {
    const out = await runGuardsCheck(h.t.app.deps.modules.guards);
    await h.deps.jobs.drain();
    return out;
  };
  /** One 15 s sample of every GPU at `util` % ('unread': a sample whose GPU figures could not be read). */
  const sample = (instanceId: number, util: number | 'unread', at = clock.now()) =>
    samples.record([
      {
        instanceId,
        at,
        gpuUtil: util === 'unread' ? [] : [util],
        gpuMemUsedMib: util === 'unread' ? [] : [100],
        gpuMemTotalMib: util === 'unread' ? [] : [46_068],
        cpuPercent: 1,
        memUsedBytes: 1,
        memLimitBytes: 2,
        diskUsedBytes: 1,
        diskLimitBytes: 2,
      },
    ]);
  return {
    check,
    sample,
    /** A funded user's running pay-as-you-go instance (or a package with `billingType`). */
    async running(name: string, billingType = 'hourly', user?: Awaited<ReturnType<H['funded']>>) {
      const u = user ?? (await h.funded(500));
      const res = await h.create(u.headers, {
        machineId: await h.idOf(HOST),
        instanceName: name,
        image: IMAGE,
        gpuAmount: 1,
        billingType,
        ...(billingType === 'hourly' ? {} : { duration: 1 }),
      });
      if (res.statusCode !== 200) throw new Error(res.body);
      const id = res.json().data.id as number;
      return { u, id };
    },
    /**
     * Lets `minutes` pass a minute at a time: samples at `util` % every 15 s (none when `util`
     * is null), then a check at the end of each minute. Returns the minute after which `stop`
     * says to stop early (or the last).
     */
    async pass(ids: number[], minutes: number, util: number | 'unread' | null) {
      for (let m = 0; m < minutes; m++) {
        for (let s = 0; s < 4; s++) {
          if (util !== null) for (const id of ids) await sample(id, util);
          clock.advance(15_000);
        }
        await check();
      }
    },
    put: (headers: Record<string, string>, id: number, body: unknown) =>
      h.t.app.inject({
        method: 'PUT',
        url: `/api/gpu/instance/${id}/auto-shutdown`,
        headers,
        payload: body as object,
      }),
    get: (headers: Record<string, string>, id: number) =>
      h.t.app.inject({ method: 'GET', url: `/api/gpu/instance/${id}/auto-shutdown`, headers }),
    markers: async (headers: Record<string, string>) =>
      (await h.t.app.inject({ method: 'GET', url: '/api/gpu/auto-shutdown', headers })).json().data,
    /** The user's notices of the instance (or of the account with null), oldest first. */
    notices: (userId: number) =>
      h.t.db.select().from(userNotices).where(eq(userNotices.userId, userId)).orderBy(asc(userNotices.id)),
    stoppedEvents: (instanceId: number) =>
      h.t.db
        .select()
        .from(instanceEvents)
        .where(and(eq(instanceEvents.instanceId, instanceId), eq(instanceEvents.toStatus, 'STOPPED'))),
  };
}

export const IDLE = { enabled: true, thresholdPercent: 5, idleMinutes: 30, warnMinutes: 10 };
export const OFF = { mode: 'off' } as const;
