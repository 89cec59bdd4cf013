import type { DbOrTx } from './client.ts';

/** What Drizzle's `.prepare(name)` returns, as far as this file needs it. */
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** Drizzle's session (PostgreSQL pool or transaction client, PGlite or its transaction). */
type WithSession = { session: { client: unknown } };

/**
 * A statement Drizzle builds once per process and driver, then runs with new values on any
 * database or transaction handle. Drizzle spends 100–300 µs of CPU building a statement each
 * time it runs, more than PostgreSQL needs to run most of ours, and a create with its
 * provisioning runs about twenty (issue 15). On PostgreSQL it is also a named prepared
 * statement: each connection parses it once.
 *
 * `build` must give the same text whatever the values: every value is a `sql.placeholder`
 * (a list is one array placeholder, `= any(...)`), never an `inArray` of values or a condition
 * left out. A column's placeholder takes what the column's encoder takes: a nullable timestamp's
 * cannot take null (Drizzle calls `toISOString` on it). The built query is only re-pointed at the caller's client (Drizzle keeps it there),
 * so results map exactly as the builder's own `.execute()` would.
 */
export function preparedStatement<R>(
  name: string,
  build: (db: DbOrTx) => { prepare(name: string): Prepared<R> },
) {
  // One per session class: a process may hold PGlite and PostgreSQL handles (tests, tools).
  const byDriver = new Map<unknown, Prepared<R>>();
  return (db: DbOrTx, values: Record<string, unknown>): Promise<R> => {
    const session = (db as unknown as WithSession).session;
    let built = byDriver.get(session.constructor);
    if (!built) {
      built = build(db).prepare(name);
      byDriver.set(session.constructor, built);
    }
    const bound = Object.create(built) as Prepared<R> & { client: unknown };
    bound.client = session.client;
    return bound.execute(values);
  };
}
