import type { Instance } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const make = async (headers: Record<string, string>, name: string) => {
  const res = await h.create(headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: name,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  return res.json().data.id as number;
};
const rename = (headers: Record<string, string>, id: number | string, payload: unknown) =>
  h.t.app.inject({ method: 'PATCH', url: `/api/gpu/instances/${id}`, headers, payload: payload as object });
const list = async (headers: Record<string, string>, query: string) =>
  (await h.t.app.inject({ method: 'GET', url: `/api/gpu/instances?${query}`, headers })).json().data as {
    list: Instance[];
    total: number;
  };

describe('rename', () => {
  it('the owner renames an instance; the list shows the new name', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, 'before');
    const res = await rename(u.headers, id, { instanceName: '  after-2 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, name: 'after-2' });
    expect((await h.view(u.headers, id)).name).toBe('after-2');
  });

  it('an invalid name is a 400 naming the field, in Chinese', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers, 'valid');
    for (const [payload, words] of [
      [{ instanceName: '-bad-' }, '实例名称只能包含字母、数字和连字符'],
      [{ instanceName: 'a'.repeat(51) }, '实例名称不能超过50个字符'],
      [{ instanceName: '' }, '请输入实例名称'],
      [{}, '请输入实例名称'],
    ] as const) {
      const res = await rename(u.headers, id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('instanceName');
      expect(res.json().message).toContain(words);
    }
    expect((await h.view(u.headers, id)).name).toBe('valid');
  });

  it("another user's instance (or none) is 404, and its name stays", async () => {
    const owner = await h.funded(100);
    const other = await h.funded(0);
    const id = await make(owner.headers, 'mine');
    expect((await rename(other.headers, id, { instanceName: 'theirs' })).statusCode).toBe(404);
    expect((await rename(other.headers, 99_999, { instanceName: 'theirs' })).statusCode).toBe(404);
    expect((await h.view(owner.headers, id)).name).toBe('mine');
    const anon = await h.t.app.inject({
      method: 'PATCH',
      url: `/api/gpu/instances/${id}`,
      payload: { instanceName: 'x' },
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('released instances in the list', () => {
  it('carry releasedAt, and hideReleased=1 leaves them out (a status filter still shows them)', async () => {
    const u = await h.funded(100);
    const gone = await make(u.headers, 'gone');
    const kept = await make(u.headers, 'kept');
    clock.advance(10 * 60_000);
    await h.action(u.headers, 'release', gone);
    const all = await list(u.headers, 'size=100');
    expect(all.total).toBe(2);
    const released = all.list.find((i) => i.id === gone);
    expect(released).toMatchObject({ status: 'RELEASED', releasedAt: clock.now().toISOString() });
    expect(all.list.find((i) => i.id === kept)?.releasedAt).toBeNull();
    const hidden = await list(u.headers, 'size=100&hideReleased=1');
    expect(hidden.list.map((i) => i.id)).toEqual([kept]);
    expect(hidden.total).toBe(1);
    // The total rides with the page's rows; past the last page it is read on its own.
    expect(await list(u.headers, 'page=2&size=1')).toMatchObject({ total: 2, list: [{ id: gone }] });
    expect(await list(u.headers, 'page=3&size=1')).toMatchObject({ total: 2, list: [] });
    const only = await list(u.headers, 'size=100&hideReleased=1&status=RELEASED');
    expect(only.list.map((i) => i.id)).toEqual([gone]);
    // Released while the page was open (at or after releasedSince): still shown.
    const since = (at: Date) =>
      `size=100&hideReleased=1&releasedSince=${encodeURIComponent(at.toISOString())}`;
    expect((await list(u.headers, since(new Date(clock.now().getTime() - 1000)))).total).toBe(2);
    expect((await list(u.headers, since(new Date(clock.now().getTime() + 1000)))).total).toBe(1);
    // Paged: the live and the just-released, read apart, come back as one list, newest first.
    const page = async (n: number) =>
      list(
        u.headers,
        `${since(new Date(clock.now().getTime() - 1000))}&page=${n}&size=1`.replace('size=100&', ''),
      );
    expect(await page(1)).toMatchObject({ total: 2, list: [{ id: kept }] });
    expect(await page(2)).toMatchObject({ total: 2, list: [{ id: gone }] });
    expect(await page(3)).toMatchObject({ total: 2, list: [] });
    const bad = await h.t.app.inject({
      method: 'GET',
      url: '/api/gpu/instances?hideReleased=1&releasedSince=yesterday',
      headers: u.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
