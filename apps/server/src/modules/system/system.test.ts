import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.ts';
import { createTestApp, createTestDatabase } from '../../test/test-app.ts';
import { ensureFirstAdmin } from '../admins/admins.usecases.ts';
import { admins } from '../auth/auth.tables.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { gpuSkus, images } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts, regions } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { DEMO_HOSTS, DEMO_REGIONS } from './demo-data.ts';
import { seedOnFirstStart } from './system.usecases.ts';
import { VACUUM_TASK } from './tasks/vacuum.task.ts';

const count = async (database: Database, table: Parameters<Database['db']['$count']>[0]) =>
  database.db.$count(table);

describe('first-start data', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('seeds once and never again, keeping edits', async () => {
    expect(await seedOnFirstStart(database, { demo: true })).toBe(true);
    expect(await count(database, tenants)).toBe(2);
    expect(await count(database, regions)).toBe(DEMO_REGIONS.length);
    expect(await count(database, hosts)).toBe(DEMO_HOSTS.length);
    expect(await count(database, gpuSkus)).toBe(DEMO_HOSTS.length);
    expect(await count(database, hostGpus)).toBe(DEMO_HOSTS.reduce((n, h) => n + h.gpuCount, 0));

    await database.db.update(tenants).set({ name: '改过的名字' }).where(sql`code = 'default'`);
    expect(await seedOnFirstStart(database, { demo: true })).toBe(false);
    expect(await count(database, tenants)).toBe(2);
    const [t] = await database.db.select().from(tenants).where(sql`code = 'default'`);
    expect(t?.name).toBe('改过的名字');
  });

  it('puts regions in SPEC order: 安徽A区 first, overseas last', async () => {
    const rows = await database.db.select().from(regions).orderBy(regions.sortOrder);
    expect(rows[0]?.name).toBe('安徽A区');
    expect(rows.at(-1)?.overseas).toBe(true);
  });

  it('catalogues PyTorch, TensorFlow and base images plus one CANN and one MUSA', async () => {
    const rows = await database.db.select().from(images);
    const types = new Set(rows.map((r) => r.frameworkType));
    expect(types).toEqual(new Set(['pytorch', 'tensorflow', 'base']));
    expect(rows.filter((r) => r.cannVersion).length).toBe(1);
    expect(rows.filter((r) => r.musaVersion).length).toBe(1);
    expect(
      new Set(rows.filter((r) => r.frameworkType === 'pytorch').map((r) => r.pythonVersion)).size,
    ).toBeGreaterThan(2);
  });
});

describe('first admin', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('generates a password once, printed by the caller, and never replaces the admin', async () => {
    const first = await ensureFirstAdmin(database, { username: 'root' });
    expect(first.created).toBe(true);
    expect(first.generatedPassword?.length).toBeGreaterThanOrEqual(12);
    const [row] = await database.db.select().from(admins);
    expect(row?.username).toBe('root');
    expect(row?.roles).toEqual(['ADMIN']);
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(row?.passwordHash ?? '', first.generatedPassword ?? '')).toBe(true);
    expect(await ensureFirstAdmin(database, { username: 'other', password: 'Another123' })).toEqual({
      created: false,
    });
    expect(await count(database, admins)).toBe(1);
  });
});

describe('the embedded database’s vacuum', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('is a task on PGlite only, and vacuums and analyzes every table', async () => {
    const embedded = t.database.kind === 'pglite';
    expect(t.app.tasks.names().includes(VACUUM_TASK)).toBe(embedded);
    if (!embedded) return; // PostgreSQL's autovacuum does it
    const lastVacuum = async () =>
      (
        (await t.db.execute(
          sql`select last_vacuum, last_analyze from pg_stat_user_tables where relname = 'billing_records'`,
        )) as unknown as { rows: { last_vacuum: unknown; last_analyze: unknown }[] }
      ).rows[0];
    expect((await lastVacuum())?.last_vacuum ?? null).toBeNull();
    await t.app.tasks.runNow(VACUUM_TASK);
    const after = await lastVacuum();
    expect(after?.last_vacuum).not.toBeNull();
    expect(after?.last_analyze).not.toBeNull();
  });
});
