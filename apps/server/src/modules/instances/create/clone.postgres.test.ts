import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../instances.tables.ts';
import {
  createOn,
  createOnMachine,
  expectOneOfCloneAndCreate,
  stoppedThenFilled,
} from '../races.test-helpers.ts';
import { invariantProblems, twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'bj-a-a100-01';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('a clone racing a create for the last idle GPUs, PostgreSQL', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    r = await twoReplicas();
  });
  afterAll(() => r.close());

  const create = (
    app: ReturnType<typeof r.next>,
    headers: Record<string, string>,
    name: string,
    gpuAmount: number,
  ) => createOn(r, app, headers, HOST, name, gpuAmount);

  it('exactly one of them gets the GPUs; the other is refused and charged nothing', async () => {
    for (let round = 0; round < 2; round++) {
      // Everything idle is taken but two GPUs.
      const {
        owner,
        id: sourceId,
        mine,
      } = await stoppedThenFilled(r, {
        host: HOST,
        name: `src-${round}`,
        funded: 100_000,
        fill: { name: `fill-${round}`, funded: 10_000, leave: 2 },
      });
      const rival = await r.h.funded(10_000);
      const before = { owner: await r.h.balance(owner.user.id), rival: await r.h.balance(rival.user.id) };
      // A slow host on the second round: the clone's job overlaps the create.
      await r.h.setHostSettings(HOST, `{"latencyMs":${round ? 200 : 0}}`);
      const machineId = await r.h.idOf(HOST);
      const [cloned, created] = await Promise.all([
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/clone?instance_uuid=${sourceId}`,
          headers: owner.headers,
          payload: { instanceName: `clone-${round}`, gpuAmount: 2, billingType: 'daily', duration: 1 },
        }),
        createOnMachine(r.next(), rival.headers, machineId, `rival-${round}`, 2),
      ]);
      await r.drain();
      await expectOneOfCloneAndCreate(r, {
        cloned,
        created,
        owner,
        rival,
        before,
        mine,
        cloneRow: { status: 'RUNNING', gpuCount: 2, transitionJob: { cloneOf: sourceId } },
      });
      await r.h.setHostSettings(HOST, '{"latencyMs":0}');
      for (const m of mine) await r.h.action(m.headers, 'release', m.id);
      const left = await r.h.t.db.select().from(instances).where(eq(instances.status, 'RUNNING'));
      expect(left.filter((i) => mine.some((m) => m.id === i.id))).toEqual([]);
    }
  }, 120_000);

  it('a clone racing a power on of its source: the copy never starts on a running source', async () => {
    for (let round = 0; round < 4; round++) {
      const owner = await r.h.funded(10_000);
      const made = await create(r.apps[0] as never, owner.headers, `src-on-${round}`, 1);
      expect(made.statusCode, made.body).toBe(200);
      const sourceId = made.json().data.id as number;
      await r.drain();
      await r.h.action(owner.headers, 'power_off', sourceId);
      await r.h.setHostSettings(HOST, `{"latencyMs":${round % 2 ? 200 : 0}}`);
      const [cloned, powered] = await Promise.all([
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/clone?instance_uuid=${sourceId}`,
          headers: owner.headers,
          payload: { instanceName: `clone-on-${round}`, gpuAmount: 1, billingType: 'hourly' },
        }),
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/power_on?instance_uuid=${sourceId}`,
          headers: owner.headers,
        }),
      ]);
      await r.drain();
      expect([cloned, powered].filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      const ids = [sourceId];
      if (cloned.statusCode === 200) {
        const id = cloned.json().data.id as number;
        ids.push(id);
        // Bought while the source was off: the copy was made from a stopped source and ran.
        const [row] = await r.h.t.db.select().from(instances).where(eq(instances.id, id));
        expect(row?.status).toBe('RUNNING');
        if (powered.statusCode === 409) {
          // Refused while the copy was being made, or after it: the copy then holds the GPU the
          // source gave back at power off, and power on offers the host's other GPUs.
          expect([
            '实例正在被克隆（复制系统盘与数据盘），请等克隆完成后再开机',
            '实例原来使用的GPU已被占用：可以使用该主机的其他空闲GPU开机（数据保留），或稍后再试',
          ]).toContain(powered.json().message);
          const [source] = await r.h.t.db.select().from(instances).where(eq(instances.id, sourceId));
          expect(source?.status).toBe('STOPPED');
        }
      } else {
        expect(cloned.statusCode).toBe(409);
        expect(cloned.json().message).toMatch(/无法克隆：请先关机再克隆$/);
        expect(powered.statusCode).toBe(200);
      }
      expect(await invariantProblems(r.h.t.db)).toEqual([]);
      await r.h.setHostSettings(HOST, '{"latencyMs":0}');
      for (const id of ids) await r.h.action(owner.headers, 'release', id);
    }
  }, 120_000);
});
