import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE } from '../../../test/instances.ts';
import { twoReplicas } from '../replicas.test-helpers.ts';
import { userImages } from '../user-images.tables.ts';

const HOST = 'nm-a-l40s-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)(
  'saved image quota and deletes under concurrency, PostgreSQL',
  () => {
    let r: Awaited<ReturnType<typeof twoReplicas>>;
    beforeAll(async () => {
      r = await twoReplicas();
    });
    afterAll(() => r.close());

    const stopped = async (headers: Record<string, string>, name: string) => {
      const made = await r.h.create(headers, {
        machineId: await r.h.idOf(HOST),
        instanceName: name,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      expect(made.statusCode, made.body).toBe(200);
      const id = made.json().data.id as number;
      await r.drain();
      await r.h.action(headers, 'power_off', id);
      return id;
    };
    const save = (app: ReturnType<typeof r.next>, headers: Record<string, string>, id: number) =>
      app.inject({
        method: 'POST',
        url: `/api/gpu/instance/save-image?instance_uuid=${id}`,
        headers,
        payload: { name: `img-${id}` },
      });

    it('saves of one user on two replicas at once never pass the count quota', async () => {
      const admin = await r.h.t.adminHeaders();
      const quota = (maxCount: number) =>
        r.h.t.app.inject({
          method: 'PUT',
          url: '/api/admin/user-images/quota',
          headers: admin,
          payload: { maxCount, maxTotalGb: 100 },
        });
      expect((await quota(1)).statusCode).toBe(200);
      for (let round = 0; round < 3; round++) {
        const u = await r.h.funded(100);
        const ids = [await stopped(u.headers, `a-${round}`), await stopped(u.headers, `b-${round}`)];
        const answers = await Promise.all(ids.map((id, i) => save(r.apps[i] as never, u.headers, id)));
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
        expect(answers.find((a) => a.statusCode === 409)?.json().message).toBe(
          '镜像数量已达上限（1 个），请先删除不用的镜像',
        );
        await r.drain();
        const rows = await r.h.t.db.select().from(userImages).where(eq(userImages.userId, u.user.id));
        expect(rows.map((row) => row.status)).toEqual(['AVAILABLE']);
        for (const id of ids) await r.h.action(u.headers, 'release', id);
      }
      expect((await quota(5)).statusCode).toBe(200);
    });

    it('a delete racing a create from the image: either the create runs from it or the delete wins, never both', async () => {
      for (let round = 0; round < 3; round++) {
        const u = await r.h.funded(100);
        const id = await stopped(u.headers, `src-${round}`);
        expect((await save(r.apps[0] as never, u.headers, id)).statusCode).toBe(200);
        await r.drain();
        const [img] = await r.h.t.db.select().from(userImages).where(eq(userImages.userId, u.user.id));
        const machineId = await r.h.idOf(HOST);
        const [created, deleted] = await Promise.all([
          (r.apps[0] as never as typeof r.h.t.app).inject({
            method: 'POST',
            url: '/api/gpu/instance/create',
            headers: u.headers,
            payload: {
              machineId,
              instanceName: `copy-${round}`,
              image: img?.ref,
              gpuAmount: 1,
              billingType: 'hourly',
            },
          }),
          (r.apps[1] as never as typeof r.h.t.app).inject({
            method: 'DELETE',
            url: `/api/user/images/${img?.id}`,
            headers: u.headers,
          }),
        ]);
        // The delete commits first (the create then finds no image: 404) or waits for the create
        // and refuses (409): never an instance created from an image being deleted.
        const outcome = [created.statusCode, deleted.statusCode].join('/');
        expect(['404/200', '200/409']).toContain(outcome);
        await r.drain();
        if (created.statusCode === 200) await r.h.action(u.headers, 'release', created.json().data.id);
        await r.h.action(u.headers, 'release', id);
      }
    });
  },
);
