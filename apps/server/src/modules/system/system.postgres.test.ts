import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../platform/db/client.ts';
import { createSecretBox } from '../../platform/secret-box.ts';
import { admins } from '../auth/auth.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { DEMO_HOSTS } from './demo-data.ts';
import { prepareDatabase } from './system.usecases.ts';

const REPLICAS = 4;
/** What main.ts hands every start: stored secrets are (re-)sealed under it, under the start-up lock. */
const box = createSecretBox('replica-start-secret-replica-start-secret-0123');

/** Replicas starting together on one empty PostgreSQL (scripts/with-postgres.sh). */
describe.runIf(Boolean(process.env.DATABASE_URL))('several replicas starting at once', () => {
  const url = process.env.DATABASE_URL as string;
  const name = `test_${randomBytes(6).toString('hex')}`;
  const databases: Database[] = [];
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  };

  beforeAll(async () => {
    await admin(`create database ${name}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    // Each "replica" has its own pool, as separate processes would.
    for (let i = 0; i < REPLICAS; i++) databases.push(await openDatabase({ url: dbUrl.toString() }));
  });
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.close()));
    await admin(`drop database if exists ${name} with (force)`);
  });

  it(`${REPLICAS} concurrent starts on an empty database all succeed and seed once`, async () => {
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      databases.map((d) => prepareDatabase(d, { demo: true, admin: { username: 'admin' }, box })),
    );
    const ms = Math.round(performance.now() - started);
    const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
    expect(failures).toEqual([]);
    const results = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    expect(results.filter((r) => r.admin.created)).toHaveLength(1);
    expect(results.filter((r) => r.admin.generatedPassword)).toHaveLength(1);

    const [db] = databases;
    if (!db) throw new Error('no database');
    expect(await db.db.$count(tenants)).toBe(2);
    expect(await db.db.$count(hosts)).toBe(DEMO_HOSTS.length);
    expect(await db.db.$count(admins)).toBe(1);
    console.info(`${REPLICAS} concurrent starts on an empty PostgreSQL: ${ms} ms`);

    // A later start (a fifth replica, a restart) finds everything in place and changes nothing.
    const again = await prepareDatabase(db, { demo: true, admin: { username: 'admin' }, box });
    expect(again).toEqual({
      seeded: false,
      admin: { created: false },
      secrets: { hosts: 0, instances: 0, answers: 0, admins: 0, failed: 0 },
    });
  });
});
