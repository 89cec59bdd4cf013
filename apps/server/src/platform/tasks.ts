import type { FastifyBaseLogger } from 'fastify';

/**
 * Scheduled jobs of the features (DESIGN §1: metering, expiry, reconcile, sync), run in the
 * server process. Every replica runs every task, so each run must be safe to run concurrently
 * with itself elsewhere: conditional updates and unique keys, or `runExclusively` below.
 */
export interface Task {
  /** Unique, e.g. `payments.close-expired`. */
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

export interface TaskRunner {
  register(task: Task): void;
  /** Starts the timers (main.ts, when TASKS=on). A run never overlaps the previous run of its task. */
  start(): void;
  /** Stops the timers and waits for runs in flight. */
  stop(): Promise<void>;
  /** Runs one task now (tests, admin tools); waits for a run already in flight instead of overlapping it. */
  runNow(name: string): Promise<void>;
  names(): string[];
  /** Runs and failures per task since start-up, so a task that keeps failing can be seen (health, tests). */
  stats(): Record<string, TaskStats>;
}

export interface TaskStats {
  runs: number;
  failures: number;
  /** Failures since the last successful run: more than one means the task is stuck failing. */
  consecutiveFailures: number;
  lastRunAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

const freshStats = (): TaskStats => ({
  runs: 0,
  failures: 0,
  consecutiveFailures: 0,
  lastRunAt: null,
  lastFailureAt: null,
  lastError: null,
});

export function createTaskRunner(log: FastifyBaseLogger): TaskRunner {
  const tasks = new Map<string, Task>();
  const inFlight = new Map<string, Promise<void>>();
  const counters = new Map<string, TaskStats>();
  const timers: NodeJS.Timeout[] = [];
  let started = false;

  const runOnce = (task: Task): Promise<void> => {
    const running = inFlight.get(task.name);
    if (running) return running;
    const started = performance.now();
    const stats = counters.get(task.name) ?? freshStats();
    counters.set(task.name, stats);
    stats.runs++;
    stats.lastRunAt = new Date().toISOString();
    // Promise.resolve().then: a run that throws before returning its promise is a failure too.
    const p = Promise.resolve()
      .then(() => task.run())
      .then(
        (result) => {
          stats.consecutiveFailures = 0;
          log.debug({ task: task.name, ms: Math.round(performance.now() - started), result }, 'task ran');
        },
        (err: unknown) => {
          stats.failures++;
          stats.consecutiveFailures++;
          stats.lastFailureAt = new Date().toISOString();
          stats.lastError = err instanceof Error ? err.message : String(err);
          log.error(
            {
              err,
              task: task.name,
              ms: Math.round(performance.now() - started),
              failures: stats.failures,
              consecutiveFailures: stats.consecutiveFailures,
            },
            `task ${task.name} failed`,
          );
        },
      )
      .finally(() => inFlight.delete(task.name));
    inFlight.set(task.name, p);
    return p;
  };

  return {
    register(task) {
      if (tasks.has(task.name)) throw new Error(`task ${task.name} registered twice`);
      if (!(task.intervalMs > 0)) throw new Error(`task ${task.name} needs a positive interval`);
      tasks.set(task.name, task);
    },
    start() {
      if (started) return;
      started = true;
      for (const task of tasks.values()) {
        // A random first delay spreads the replicas' runs over the interval.
        const first = setTimeout(
          () => {
            void runOnce(task);
            const every = setInterval(() => {
              if (!inFlight.has(task.name)) void runOnce(task);
            }, task.intervalMs);
            every.unref();
            timers.push(every);
          },
          Math.floor(Math.random() * Math.min(task.intervalMs, 10_000)),
        );
        first.unref();
        timers.push(first);
      }
      log.info({ tasks: [...tasks.keys()] }, 'scheduled tasks started');
    },
    async stop() {
      started = false;
      for (const t of timers.splice(0)) clearTimeout(t);
      await Promise.all(inFlight.values());
    },
    async runNow(name) {
      const task = tasks.get(name);
      if (!task) throw new Error(`no task ${name}`);
      await runOnce(task);
    },
    names: () => [...tasks.keys()],
    stats: () =>
      Object.fromEntries(
        [...tasks.keys()].map((name) => [name, { ...(counters.get(name) ?? freshStats()) }]),
      ),
  };
}

// The lock is SQL, so it lives with the database plumbing; tasks import it from here.
export { runExclusively } from './db/exclusive.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Scheduled tasks of the features; main.ts starts them when TASKS=on. */
    tasks: TaskRunner;
  }
}
