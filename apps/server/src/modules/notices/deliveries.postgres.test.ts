import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import { openDatabase } from '../../platform/db/client.ts';
import { buildServer, createTestApp, testConfig } from '../../test/test-app.ts';
import { NOTIFICATION_DELIVERY_TASK } from './notices.module.ts';
import { createNoticesRepository } from './notices.repository.ts';
import { notificationDeliveries } from './notifications.tables.ts';
import { recordingSms, startReceiver } from './notifications.test-helpers.ts';

/** Two servers (own pools, own SMS drivers) on one PostgreSQL database deliver at the same time. */
const smsA = recordingSms();
const smsB = recordingSms();
let t: Awaited<ReturnType<typeof createTestApp>>;
let second: Awaited<ReturnType<typeof buildServer>>;
let closeSecond: () => Promise<void>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

describe.runIf(Boolean(process.env.DATABASE_URL))('fan-out with two replicas', () => {
  beforeAll(async () => {
    t = await createTestApp({ demo: false, sms: smsA.driver });
    const current = (await t.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${current.rows[0]?.name}`;
    const database = await openDatabase({ url: url.toString() });
    second = await buildServer({
      config: testConfig({ RATE_LIMITS: 'off' }),
      database,
      clock: systemClock,
      webDist: '/nonexistent',
      sms: smsB.driver,
    });
    closeSecond = async () => {
      await second.close();
      await database.close();
    };
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await closeSecond();
    await t.close();
  });

  it('writes a notice once when both replicas report it, and each delivery is sent once', async () => {
    const users = [];
    for (let i = 0; i < 30; i++) {
      const u = await t.createUser();
      await t.app.inject({
        method: 'POST',
        url: '/api/user/webhooks',
        headers: u.headers,
        payload: { url: `${receiver.url}/u${u.user.id}` },
      });
      users.push(u.user);
    }
    // Both replicas report each event at the same moment (as two scanning tasks would).
    const ids = await Promise.all(
      users.flatMap((u) =>
        [t.app, second].map((app) =>
          createNoticesRepository({ db: app.deps.core.db }).notify({
            userId: u.id,
            event: 'arrears_stop',
            title: '欠费停机',
            body: '实例已关机',
            dedupeKey: `arrears_stop:${u.id}:1`,
          }),
        ),
      ),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(users.length);
    const queued = await t.db.select().from(notificationDeliveries);
    expect(queued).toHaveLength(users.length * 2); // one SMS and one webhook each

    // Truly concurrent delivery runs on both replicas, several rounds.
    for (let round = 0; round < 3; round++) {
      await Promise.all([t.app, second].map((app) => app.tasks.runNow(NOTIFICATION_DELIVERY_TASK)));
    }
    const hooks = receiver.received.map((r) => r.path);
    expect(hooks).toHaveLength(users.length);
    expect(new Set(hooks).size).toBe(users.length);
    const phones = [...smsA.sent, ...smsB.sent].map((s) => s.phone);
    expect(phones.sort()).toEqual(users.map((u) => u.phone).sort());
    // Both replicas took part (60 rows, 50 a claim: the claims split them), and all is delivered.
    expect(smsA.sent.length).toBeGreaterThan(0);
    expect(smsB.sent.length).toBeGreaterThan(0);
    const after = await t.db.select().from(notificationDeliveries);
    expect(after.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });
});
