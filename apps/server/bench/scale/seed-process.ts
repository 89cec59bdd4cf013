import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Database } from '../../src/platform/db/client.ts';
import { databaseUrlOf } from '../../src/test/server-process.ts';

/**
 * seedScale in a process of its own, as `npm run seed:scale` runs beside a deployment: the
 * process measured afterwards only serves, as a deployed server does, instead of also being
 * the one that just wrote ten million rows (issue 33). Resolves with the counts it printed last.
 */
export async function seedInOwnProcess(
  database: Database,
  fraction: number,
  log: (line: string) => void,
): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./seed-child.ts', import.meta.url).pathname,
      await databaseUrlOf(database.db),
      String(fraction),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let last = '';
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (last) log(last);
    last = line;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`seeding process ended with ${code}`);
  return last;
}
