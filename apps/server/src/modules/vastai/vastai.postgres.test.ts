import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { FAKE_VAST_IMAGES, type FakeVast, startFakeVast } from '../hosts/drivers/vastai/fake-vastai.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { instances } from '../instances/instances.tables.ts';
import { refreshOffers } from './vastai.usecases.ts';

// Real concurrency needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('overseas purchases racing on PostgreSQL', () => {
  let fake: FakeVast;
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    fake = await startFakeVast({ stepMs: 20 });
    h = await instanceTestApp(systemClock, { VASTAI_API_KEY: fake.apiKey, VASTAI_API_URL: fake.url });
    await refreshOffers(h.t.app.deps.modules.vastai);
    await h.t.db
      .update(hosts)
      .set({ settings: { pollMs: 10 } })
      .where(eq(hosts.driver, 'vastai'));
  });
  afterAll(async () => {
    await h.t.close();
    await fake.close();
  });

  it('12 users buy one offer at once: one instance, 11 clear 409s, vast.ai asked to rent it once', async () => {
    const offer = fake.addOffer({ num_gpus: 1 });
    await refreshOffers(h.t.app.deps.modules.vastai);
    const users = await Promise.all(Array.from({ length: 12 }, () => h.funded(100)));
    const answers = await Promise.all(
      users.map((u, i) =>
        h.t.app.inject({
          method: 'POST',
          url: '/api/gpu/vastai/instance/create',
          headers: u.headers,
          payload: { offerId: offer.id, label: `race-${i}`, image: FAKE_VAST_IMAGES[0] },
        }),
      ),
    );
    await h.deps.jobs.drain();
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(11).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json().message).toBe('该海外机器已被租用或下架，请选择其他机器');
    }
    const rows = await h.t.db.select().from(instances).where(eq(instances.gpuModel, offer.gpu_name));
    const ours = rows.filter((r) => r.name.startsWith('race-'));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.status).toBe('RUNNING');
    expect(fake.requests.filter((r) => r.method === 'PUT' && r.path === `/asks/${offer.id}/`)).toHaveLength(
      1,
    );
  });
});
