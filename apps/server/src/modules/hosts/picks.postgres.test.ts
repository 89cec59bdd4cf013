import { type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { freePortsPicked, idleGpusPicked } from './allocation.repository.ts';

/** Hosts added after the last ANALYZE, each with 100 free ports and 8 idle GPUs. */
const GROWN_HOSTS = 300;

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Rows (or index entries) the statement's scans of host_ports and host_gpus read, run for real. */
async function rowsRead(db: DbOrTx, query: SQL): Promise<number> {
  const res = (await db.execute(sql`explain (analyze, format json) ${query}`)) as unknown as {
    rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[];
  };
  const ours = /^host_(ports|gpus)/;
  let read = 0;
  const walk = (n: PlanNode) => {
    if (ours.test(n['Relation Name'] ?? n['Index Name'] ?? ''))
      read += (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(res.rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode);
  return read;
}

/**
 * A create's GPU and port picks read their host's rows, however old the statistics are (issue
 * 33). With a full index on `instance_id`, a pick planned on statistics taken before the fleet
 * grew went through the index of every free port of the fleet: at 1,000 hosts, 100,000 entries
 * and 8.5 ms of PostgreSQL per create, most of a create's database time. The indexes on
 * `instance_id` hold held rows only, so the picks have nothing to use but their host's rows.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))("a create's picks (PostgreSQL)", () => {
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  let hostId: number;
  beforeAll(async () => {
    h = await instanceTestApp(systemClock);
    const db = h.t.db;
    // Statistics of the small fleet, then the fleet grows without an ANALYZE (autovacuum's comes later).
    await db.execute(sql`analyze hosts, host_ports, host_gpus`);
    const cols = (await db.execute(sql`
      select string_agg(quote_ident(column_name), ', ') as list from information_schema.columns
      where table_schema = current_schema() and table_name = 'hosts' and column_name not in ('id', 'name')`)) as unknown as {
      rows: { list: string }[];
    };
    const list = sql.raw(cols.rows[0]?.list as string);
    await db.execute(sql`
      insert into hosts (name, ${list})
      select h.name || '-grown-' || g, ${list} from hosts h, generate_series(1, ${GROWN_HOSTS}) g
      where h.id = (select min(id) from hosts)`);
    await db.execute(sql`
      insert into host_ports (host_id, port)
      select h.id, p from hosts h, generate_series(46000, 46099) p where h.name like '%-grown-%'`);
    await db.execute(sql`
      insert into host_gpus (host_id, index, uuid, model, memory_gb)
      select h.id, i, gen_random_uuid()::text, 'RTX 4090', 24
      from hosts h, generate_series(0, 7) i where h.name like '%-grown-%'`);
    const [first] = (
      (await db.execute(sql`
        select p.host_id as id from host_ports p join host_gpus g on g.host_id = p.host_id
        where p.instance_id is null and g.instance_id is null and g.reserved_reason is null
        order by p.host_id limit 1`)) as unknown as { rows: { id: number }[] }
    ).rows;
    hostId = first?.id as number;
  });
  afterAll(() => h.t.close());

  /** What the picks of a 1-GPU create on the first demo host read (rolled back: they lock rows). */
  const picks = async (indexed: 'held only' | 'every row') => {
    let read = { ports: 0, gpus: 0 };
    await h.t.db
      .transaction(async (tx) => {
        if (indexed === 'every row') {
          // The indexes as they were before (migration 0029), to show the check can fail.
          await tx.execute(sql`drop index host_ports_instance`);
          await tx.execute(sql`drop index host_gpus_instance`);
          await tx.execute(sql`create index host_ports_instance on host_ports (instance_id)`);
          await tx.execute(sql`create index host_gpus_instance on host_gpus (instance_id)`);
        }
        read = {
          ports: await rowsRead(tx, sql`select port from host_ports where ${freePortsPicked(tx, hostId, 2)}`),
          gpus: await rowsRead(tx, sql`select index from host_gpus where ${idleGpusPicked(tx, hostId, 1)}`),
        };
        // Undone: the picks lock rows, and the old indexes are put back only for this look.
        tx.rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof TransactionRollbackError)) throw e;
      });
    return read;
  };

  it('read only their host’s ports and GPUs after the fleet grew past its statistics', async () => {
    const read = await picks('held only');
    // The host has 100 ports and 8 GPUs (each row counted once per scan that reads it: index,
    // then table); the fleet has 30,000 free ports and 2,400 idle GPUs more.
    expect(read.ports).toBeLessThanOrEqual(3 * 100);
    expect(read.gpus).toBeLessThanOrEqual(3 * 8);
  });

  it('the check fails with a full index on instance_id (the check can fail)', async () => {
    const read = await picks('every row');
    // The port pick went through every free port of the fleet (as in the create bench).
    expect(read.ports).toBeGreaterThan(GROWN_HOSTS * 100);
  });
});
