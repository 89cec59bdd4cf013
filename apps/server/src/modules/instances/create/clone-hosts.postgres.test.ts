import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../platform/clock.ts';
import { addTwinHost } from '../../../test/instances.ts';
import { simulatedImages } from '../../hosts/hosts.tables.ts';
import { createOnMachine, expectOneOfCloneAndCreate, stoppedThenFilled } from '../races.test-helpers.ts';
import { twoReplicas } from '../replicas.test-helpers.ts';

const HOST = 'bj-a-a100-01';
const TWIN = 'bj-a-a100-02';

// Real row locks need real connections and two pools: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('a clone to another host racing a create there, PostgreSQL', () => {
  let r: Awaited<ReturnType<typeof twoReplicas>>;
  let twinId: number;
  beforeAll(async () => {
    r = await twoReplicas(systemClock, { IMAGE_REGISTRY: 'registry.sim:5000/platform' });
    twinId = (await addTwinHost(r.h.t.db, HOST, TWIN, 60_000)).id;
  });
  afterAll(() => r.close());

  it('exactly one gets the other host’s last two GPUs; the loser is charged nothing; no transfer image stays', async () => {
    for (let round = 0; round < 2; round++) {
      const {
        owner,
        id: sourceId,
        mine,
      } = await stoppedThenFilled(r, {
        host: HOST,
        name: `far-src-${round}`,
        funded: 100_000,
        fill: { host: TWIN, name: `far-fill-${round}`, funded: 10_000, gpus: 2, leave: 2 },
      });
      const rival = await r.h.funded(10_000);
      const before = { owner: await r.h.balance(owner.user.id), rival: await r.h.balance(rival.user.id) };
      await r.h.setHostSettings(TWIN, `{"latencyMs":${round ? 200 : 0}}`);
      const machineId = await r.h.idOf(TWIN);
      const [cloned, created] = await Promise.all([
        r.next().inject({
          method: 'POST',
          url: `/api/gpu/instance/clone?instance_uuid=${sourceId}`,
          headers: owner.headers,
          payload: {
            instanceName: `far-clone-${round}`,
            machineId,
            gpuAmount: 2,
            billingType: 'daily',
            duration: 1,
          },
        }),
        createOnMachine(r.next(), rival.headers, machineId, `far-rival-${round}`, 2),
      ]);
      await r.drain();
      await expectOneOfCloneAndCreate(r, {
        cloned,
        created,
        owner,
        rival,
        before,
        mine,
        cloneRow: { status: 'RUNNING', hostId: twinId, gpuCount: 2 },
      });
      const left = await r.h.t.db.select().from(simulatedImages);
      expect(left.filter((i) => i.ref.includes('clone-transfer'))).toEqual([]);
      await r.h.setHostSettings(TWIN, '{"latencyMs":0}');
      for (const m of mine) await r.h.action(m.headers, 'release', m.id);
    }
  }, 120_000);
});
