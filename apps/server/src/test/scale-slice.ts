import { sql } from 'drizzle-orm';
import { seedScale } from '../../bench/scale/seed.ts';
import { seedOnFirstStart } from '../modules/system/system.usecases.ts';
import type { Database } from '../platform/db/client.ts';
import { createTestDatabase } from './test-app.ts';

/**
 * A fresh database with the demo data and `fraction` of the generated large deployment
 * (bench/scale/seed.ts), analyzed: for tests of plans at a fleet's shape (issue 33).
 */
export async function scaleSliceDatabase(fraction: number): Promise<Database> {
  const database = await createTestDatabase();
  await seedOnFirstStart(database, { demo: true });
  await seedScale(database, { fraction });
  await database.db.execute(sql`analyze`);
  return database;
}
