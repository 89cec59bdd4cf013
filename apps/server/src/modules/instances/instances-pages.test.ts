import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { rollTally } from '../../platform/db/tallies.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { expectPagesFromBothEnds, type PageRead } from '../../test/pages.ts';
import { instances } from './instances.tables.ts';
import { INSTANCES_TALLY } from './instances-list.repository.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

describe('the console instances list as it opens (issue 33)', () => {
  it('totals the tally less the dismissed, and reads deep pages from the nearer end', async () => {
    const u = await h.funded(1000);
    const other = await h.funded(1000);
    const machineId = await h.idOf('nm-a-l40s-01');
    const made: number[] = [];
    // One instance at a time, released: 27 rows on one host. Half before a tally, half after.
    const makeReleased = async (headers: Record<string, string>, name: string) => {
      const res = await h.create(headers, {
        machineId,
        instanceName: name,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.id as number;
      await h.action(headers, 'release', id);
      return id;
    };
    for (let i = 0; i < 14; i++) made.push(await makeReleased(u.headers, `p${i}`));
    await makeReleased(other.headers, 'theirs');
    expect(await rollTally(h.t.db, INSTANCES_TALLY, 0)).toBeGreaterThan(0);
    for (let i = 14; i < 27; i++) made.push(await makeReleased(u.headers, `p${i}`));
    // 删除记录 took two off the list: one counted by the tally, one after it.
    await h.t.db
      .update(instances)
      .set({ dismissedAt: clock.now() })
      .where(
        and(eq(instances.userId, u.user.id), inArray(instances.id, [made[3] as number, made[20] as number])),
      );

    const page: PageRead = async (q) => {
      const res = await h.t.app.inject({ method: 'GET', url: `/api/gpu/instances?${q}`, headers: u.headers });
      const data = res.json().data;
      return { total: data.total as number, ids: data.list.map((i: { id: number }) => i.id) as number[] };
    };
    // A status filter takes the general query (every one is released): the reference.
    const all = (await page('status=RELEASED&size=100')).ids;
    expect(all).toEqual(made.filter((id) => id !== made[3] && id !== made[20]).reverse());
    await expectPagesFromBothEnds(page, all);
    expect(await page('page=99&size=10')).toEqual({ total: 25, ids: [] });
    // Tallied again (the dismissed one after the mark now counted): the same.
    await rollTally(h.t.db, INSTANCES_TALLY, 0);
    await expectPagesFromBothEnds(page, all);
  });
});
