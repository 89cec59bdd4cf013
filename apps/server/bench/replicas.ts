import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { gpuSkus } from '../src/modules/hosts/catalog.tables.ts';
import { hostGpus } from '../src/modules/hosts/hosts.tables.ts';
import { instances } from '../src/modules/instances/instances.tables.ts';
import type { Db } from '../src/platform/db/client.ts';
import { databaseUrlOf, freePort, killProcess, startServerProcess } from '../src/test/server-process.ts';

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

// The load generator on node:http with kept-alive sockets: fetch (undici) spent about a
// millisecond of CPU per request on the two cores the replicas run on.
export const agent = new Agent({ keepAlive: true, maxSockets: 256 });
export const post = (url: string, headers: Record<string, string>, payload?: object) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const body = payload ? JSON.stringify(payload) : undefined;
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** `n` server processes on the bench's PostgreSQL database, as replicas are deployed. */
export async function startReplicas(db: Db, n: number) {
  const url = await databaseUrlOf(db);
  const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
  const profiles = process.env.BENCH_REPLICA_PROF;
  // Scheduled tasks off: what is measured is the burst and the provisioning it kicks.
  const children = await Promise.all(
    ports.map((port) =>
      startServerProcess(
        url,
        port,
        { TASKS: 'off' },
        // BENCH_REPLICA_PROF=dir: each replica writes a CPU profile there when it ends.
        profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [],
      ),
    ),
  );
  return {
    urls: ports.map((port) => `http://127.0.0.1:${port}`),
    /** Until no instance is left in a job state (each replica drives the jobs it kicked). */
    async settled() {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [row] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(instances)
          .where(inArray(instances.status, ['CREATING', 'STOPPING', 'STARTING', 'RELEASING']));
        if ((row?.n ?? 0) === 0) return;
        if (Date.now() > deadline) throw new Error(`${row?.n} instance jobs unfinished after 60 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => Promise.all(children.map((c) => killProcess(c, 'SIGTERM'))),
    /** CPU time (user + system) the replica processes have used so far, in ms (Linux /proc). */
    cpuMs: () =>
      children.reduce((sum, c) => {
        try {
          const fields = readFileSync(`/proc/${c.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
          // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in ticks.
          return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
        } catch {
          return sum;
        }
      }, 0),
  };
}

/**
 * The whole machine's CPU time so far, in ms (Linux /proc/stat, every core): busy (user, nice,
 * system, irq, softirq, steal) and all. Between two reads: how many cores a burst kept busy.
 */
export function machineCpuMs(): { busy: number; all: number } {
  try {
    const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = ticks;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: (busy * 1000) / CLOCK_TICKS, all: ((busy + idle + iowait) * 1000) / CLOCK_TICKS };
  } catch {
    return { busy: 0, all: 0 };
  }
}

/**
 * CPU time so far of this machine's PostgreSQL processes, in ms, by what each is (its title:
 * "client backend" for a session, else its kind, e.g. "autovacuum worker"). Processes that
 * ended in between are not counted.
 */
export function postgresCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // Sessions' titles are "postgres: user database host(port) state"; the others name their kind.
      const kind = /^postgres: \S+ \S+ [\d.:[\]a-f]+\(\d+\)/.test(title)
        ? 'client backend'
        : title.startsWith('postgres: ')
          ? title.slice('postgres: '.length).replace(/ .*$/, '') || 'postmaster'
          : 'postmaster';
      const fields = stat.split(') ')[1]?.split(' ') ?? [];
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
      out.set(kind, (out.get(kind) ?? 0) + ms);
    } catch {
      // ended while read
    }
  }
  return out;
}

/** Idle GPUs (neither held nor reserved) on the host of each of these machines. */
export async function idleGpus(db: Db, machines: number[]) {
  const rows = await db
    .select({ id: gpuSkus.id, n: sql<number>`count(${hostGpus.index})::int` })
    .from(gpuSkus)
    .leftJoin(
      hostGpus,
      and(eq(hostGpus.hostId, gpuSkus.hostId), isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)),
    )
    .where(inArray(gpuSkus.id, machines))
    .groupBy(gpuSkus.id);
  return new Map(rows.map((r) => [r.id, r.n]));
}
