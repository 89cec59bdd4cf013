import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { instances } from '../instances.tables.ts';

/** SQL of a clone (clone.usecases.ts): which instance is being made from a source right now. */
export function createCloneRepository({ db }: { db: DbOrTx }) {
  return {
    /** A clone of `sourceId` whose copy is still being made (CREATING), if any. */
    async cloning(sourceId: number): Promise<{ id: number; name: string } | undefined> {
      const [row] = await db
        .select({ id: instances.id, name: instances.name })
        .from(instances)
        .where(
          and(
            eq(instances.status, 'CREATING'),
            sql`(${instances.transitionJob} ->> 'cloneOf')::bigint = ${sourceId}`,
          ),
        )
        .limit(1);
      return row;
    },
  };
}
