import type { InstanceSample } from '@gpu/shared/monitoring';
import { and, gte, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { instanceSamples } from './monitoring.tables.ts';

/** The busiest GPU of an instance over a window, and how much of the window the samples cover. */
export interface GpuActivity {
  /** Highest utilisation of any GPU in any sample in the window (0–100). */
  maxUtil: number;
  /** The window's first sample: a window is only idle if it was watched from its start. */
  firstAt: Date;
  samples: number;
}

/** Under PostgreSQL's 65,535 parameters a statement at 12 columns a row; a batch of 2,000 is one. */
const ROWS_PER_STATEMENT = 4000;

export function createSamplesRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * One multi-row statement per batch (up to ROWS_PER_STATEMENT rows); a replica sampling the
     * same moment again changes nothing. `hostId` and `gpuIndexes` (the host's GPU index of each
     * array position) feed the host charts; without them a sample counts for its instance only.
     */
    async record(samples: Array<InstanceSample & { hostId?: number; gpuIndexes?: number[] }>) {
      for (let k = 0; k < samples.length; k += ROWS_PER_STATEMENT) {
        await db
          .insert(instanceSamples)
          .values(samples.slice(k, k + ROWS_PER_STATEMENT))
          .onConflictDoNothing();
      }
    },
    /** Per instance with samples since `since`: its busiest GPU and the first sample's time. */
    async gpuActivitySince(instanceIds: number[], since: Date): Promise<Map<number, GpuActivity>> {
      if (instanceIds.length === 0) return new Map();
      const rows = await db
        .select({
          instanceId: instanceSamples.instanceId,
          maxUtil: sql<number>`coalesce(max((select max(u) from unnest(${instanceSamples.gpuUtil}) u)), 0)::int`,
          firstAt: sql<Date>`min(${instanceSamples.at})`.mapWith(instanceSamples.at),
          samples: sql<number>`count(*)::int`,
        })
        .from(instanceSamples)
        .where(
          and(
            inArray(instanceSamples.instanceId, instanceIds),
            gte(instanceSamples.at, since),
            // A sample without GPU figures (no-GPU mode, a host whose nvidia-smi could not be read)
            // says nothing about idleness: counting it as 0 % would idle-stop a busy instance.
            sql`cardinality(${instanceSamples.gpuUtil}) > 0`,
          ),
        )
        .groupBy(instanceSamples.instanceId);
      return new Map(rows.map((r) => [r.instanceId, r]));
    },
  };
}
