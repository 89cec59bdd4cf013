/**
 * The bench's seeding process (seed-process.ts): seedScale of the database at argv[2] up to the
 * fraction argv[3], its progress on stdout, its counts as the last line.
 */
import { openDatabase } from '../../src/platform/db/client.ts';
import { seedScale } from './seed.ts';

const [url, fraction] = process.argv.slice(2);
const database = await openDatabase({ url });
try {
  const counts = await seedScale(database, { fraction: Number(fraction), log: (line) => console.log(line) });
  console.log(JSON.stringify(counts));
} finally {
  await database.close();
}
