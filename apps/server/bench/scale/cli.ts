/**
 * npm run seed:scale: the issue 33 fleet into the configured database (DATABASE_URL, or the
 * PGlite in DATA_DIR), after the same start-up work as main.ts. SEED_SCALE is the fraction
 * (default 1 = 100 %); running it again with the same or a smaller one does nothing.
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/app/config.ts';
import { prepareDatabase } from '../../src/modules/system/system.usecases.ts';
import { openDatabase } from '../../src/platform/db/client.ts';
import { secretBoxOf } from '../../src/platform/secret-box.ts';
import { seedScale } from './seed.ts';

const fraction = Number(process.env.SEED_SCALE ?? 1);
const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.dataDir,
  poolSize: config.DATABASE_POOL_SIZE,
});
const box = secretBoxOf(config);
await prepareDatabase(database, {
  demo: config.demoData,
  admin: { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD },
  box,
});
if (database.kind === 'pglite') {
  console.warn(
    `警告: 当前是 PGlite (${config.dataDir})；100% 规模需用 PostgreSQL (DATABASE_URL)，PGlite 只适合小比例 (SEED_SCALE=0.01)`,
  );
}
console.log(`seeding the scale fleet to ${fraction} of SCALE on ${database.kind}`);
const counts = await seedScale(database, { fraction, box, log: (line) => console.log(line) });
for (const [table, n] of Object.entries(counts)) console.log(`${table.padEnd(28)} ${String(n).padStart(11)}`);
const size = (await database.db.execute(
  sql`select pg_size_pretty(pg_database_size(current_database())) as size`,
)) as unknown as { rows: { size: string }[] };
console.log(`database size: ${size.rows[0]?.size}`);
await database.close();
process.exit(0);
