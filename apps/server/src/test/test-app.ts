import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { type Config, loadConfig } from '../app/config.ts';
import { buildServer } from '../app/server.ts';
import { createAuthRepository } from '../modules/auth/auth.repository.ts';
import { admins, users } from '../modules/auth/auth.tables.ts';
import { accounts } from '../modules/ledger/ledger.tables.ts';
import type { SmsDriver } from '../modules/sms/drivers/sms-driver.ts';
import { seedOnFirstStart } from '../modules/system/system.usecases.ts';
import { type Clock, fixedClock, systemClock } from '../platform/clock.ts';
import { type Database, openDatabase } from '../platform/db/client.ts';

const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** Settings for tests: DATABASE_URL from the environment decides PGlite or PostgreSQL. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: TEST_SECRET,
    DATA_DIR: '/tmp/gpu-test-data',
    DATABASE_URL: process.env.DATABASE_URL,
    // Production settings must name a payment provider; tests use the simulated one unless told.
    PAYMENT_PROVIDER: 'simulated',
    ...overrides,
  });
}

let rsaPems: { privateKey: string; publicKey: string } | undefined;
/**
 * What production needs beyond APP_SECRET: real providers for payments (Alipay, made-up app and
 * freshly generated keys; nothing is called) and SMS (Aliyun, made-up keys). The chain stays off.
 */
export function productionSettings(): Record<string, string> {
  rsaPems ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return {
    NODE_ENV: 'production',
    PAYMENT_PROVIDER: 'alipay',
    ALIPAY_APP_ID: '2021000000000001',
    ALIPAY_PRIVATE_KEY: rsaPems.privateKey,
    ALIPAY_PUBLIC_KEY: rsaPems.publicKey,
    PUBLIC_BASE_URL: 'https://gpu.example.test',
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ACCESS_KEY_ID: 'test-key-id',
    ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret',
    ALIYUN_SMS_SIGN_NAME: '测试',
    ALIYUN_SMS_TEMPLATE_CODE: 'SMS_0000',
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server of DATABASE_URL (dropped again on close). `migrate: false`
 * leaves it empty (the migrator's own tests).
 */
export async function createTestDatabase(
  url = process.env.DATABASE_URL,
  opts: { migrate?: boolean } = {},
): Promise<Database> {
  const migrated = opts.migrate !== false;
  if (!url) {
    const database = await openDatabase({ dataDir: null });
    if (migrated) await database.migrate();
    return database;
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ url: dbUrl.toString() });
  if (migrated) await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

/**
 * The middle of the current minute, held: per-IP rate-limit windows are fixed minutes, and on
 * the real clock a run of sign-ins can straddle a minute's end and count partly in a fresh one.
 */
export const midMinuteClock = () => fixedClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));

/** The whole app on a fresh database: default tenant always, demo data unless `demo: false`. */
export async function createTestApp(
  opts: { demo?: boolean; clock?: Clock; config?: Record<string, string>; sms?: SmsDriver } = {},
) {
  const database = await createTestDatabase();
  await seedOnFirstStart(database, { demo: opts.demo !== false, now: opts.clock?.now() });
  const app = await buildServer({
    // Per-IP limits count real seconds, which fixed-clock tests would trip; their own test turns them on.
    // Statistics are read right after the writes that change them: no reuse unless a test asks.
    config: testConfig({ RATE_LIMITS: 'off', ADMIN_STATS_CACHE_S: '0', ...opts.config }),
    database,
    clock: opts.clock ?? systemClock,
    webDist: '/nonexistent',
    sms: opts.sms,
  });
  /** A fresh access token of a new session for `user`, as a sign-in would give. */
  const userToken = async (user: { id: number; tenantId: number }) => {
    const sid = randomBytes(12).toString('hex');
    await createAuthRepository({ db: database.db }).createSession('user', user.id, sid, new Date());
    return app.deps.modules.auth.tokens.sign('user', user.id, { sid, tenantId: user.tenantId });
  };
  return {
    app,
    database,
    db: database.db,
    userToken,
    /** An admin (created on first call: a super administrator unless `opts` says) and its Authorization header. */
    adminHeaders: async (
      username = 'test-admin',
      opts: { role?: 'SUPER' | 'OPERATIONS' | 'FINANCE' | 'READONLY'; tenantId?: number | null } = {},
    ) => {
      const [existing] = await database.db.select().from(admins).where(eq(admins.username, username));
      const id =
        existing?.id ??
        (
          await database.db
            .insert(admins)
            .values({
              username,
              passwordHash: 'x',
              roles: ['ADMIN'],
              role: opts.role ?? 'SUPER',
              tenantId: opts.tenantId ?? null,
            })
            .returning()
        )[0]?.id;
      const sid = randomBytes(12).toString('hex');
      await createAuthRepository({ db: database.db }).createSession('admin', id as number, sid, new Date());
      return {
        authorization: `Bearer ${await app.deps.modules.auth.tokens.sign('admin', id as number, { sid })}`,
      };
    },
    /** A new user of the tenant answering `host`, with a zero balance, and its request headers. */
    createUser: async (opts: { phone?: string; host?: string } = {}) => {
      const host = opts.host ?? 'localhost';
      const tenant = await app.deps.modules.tenants.service.resolve(host);
      const phone = opts.phone ?? `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const [user] = await database.db
        .insert(users)
        .values({ tenantId: tenant.id, phone, username: phone, passwordHash: 'x' })
        .returning();
      if (!user) throw new Error('user insert failed');
      await database.db.insert(accounts).values({ userId: user.id, tenantId: tenant.id });
      const token = await userToken(user);
      return { user, headers: { authorization: `Bearer ${token}`, 'x-tenant-host': host } };
    },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

// What tests beside the modules need of the composition root, so that no module folder imports app/.
export { loadConfig } from '../app/config.ts';
export * as schema from '../app/schema.ts';
export { buildServer } from '../app/server.ts';
