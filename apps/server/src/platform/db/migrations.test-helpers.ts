import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A migrations folder as drizzle-kit writes one: each migration's statements, in order. */
export function migrationsFolder(migrations: string[][]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  const entries = migrations.map((_, i) => ({
    idx: i,
    version: '7',
    when: 1_700_000_000_000 + i * 1000,
    tag: `${String(i).padStart(4, '0')}_step`,
    breakpoints: true,
  }));
  writeFileSync(
    path.join(dir, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries }),
  );
  for (const [i, statements] of migrations.entries())
    writeFileSync(path.join(dir, `${entries[i]?.tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
  return dir;
}
