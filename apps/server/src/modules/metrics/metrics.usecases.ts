import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../platform/db/client.ts';
import type { TaskRunner } from '../../platform/tasks.ts';
import { createMetricsRepository } from './metrics.repository.ts';

export type AppMetrics = ReturnType<typeof createMetrics>;

/**
 * One Prometheus registry per app (tests build many apps in one process). Request figures are
 * this process's own; task figures come from the task runner; ledger, payment and GPU figures
 * are read from the database when scraped.
 */
export function createMetrics({ db, tasks }: { db: Db; tasks: TaskRunner }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const repo = createMetricsRepository({ db });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Counter({
    name: 'task_runs_total',
    help: 'Runs of each scheduled task in this process',
    labelNames: ['task'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [task, s] of Object.entries(tasks.stats())) this.inc({ task }, s.runs);
    },
  });
  new Counter({
    name: 'task_failures_total',
    help: 'Failed runs of each scheduled task in this process',
    labelNames: ['task'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [task, s] of Object.entries(tasks.stats())) this.inc({ task }, s.failures);
    },
  });
  new Gauge({
    name: 'task_consecutive_failures',
    help: 'Failures of each task since its last success (more than 1: stuck failing)',
    labelNames: ['task'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [task, s] of Object.entries(tasks.stats())) this.set({ task }, s.consecutiveFailures);
    },
  });
  new Counter({
    name: 'ledger_postings_total',
    help: 'Ledger entries ever posted, by kind (whole database)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await repo.ledgerPostingsByKind();
      this.reset();
      for (const r of rows) this.inc({ kind: r.kind }, r.count);
    },
  });
  new Gauge({
    name: 'recharge_orders',
    help: 'Recharge orders by payment provider and outcome (PENDING, PAID, CLOSED…; whole database)',
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
    async collect() {
      const rows = await repo.paymentsByOutcome();
      this.reset();
      for (const r of rows) this.set({ provider: r.provider, status: r.status }, r.count);
    },
  });
  const gpuRows = () => repo.gpusByModel();
  // One gauge per figure of hosts' GPU states (`countGpuStates`), so they add up as on the screens.
  const gpuGauges = [
    ['gpus_busy', 'GPUs occupied (held by an instance that is not powered off), by model', 'occupied'],
    ['gpus_idle', 'GPUs idle (can be allocated now), by model', 'idle'],
    [
      'gpus_reserved',
      'GPUs reserved (powered-off package, taken out of sale, host not active), by model',
      'reserved',
    ],
    ['gpus_total', 'GPUs on all hosts, by model', 'total'],
  ] as const;
  for (const [name, help, field] of gpuGauges) {
    new Gauge({
      name,
      help: `${help} (whole database)`,
      labelNames: ['model'] as const,
      registers: [registry],
      async collect() {
        const rows = await gpuRows();
        this.reset();
        for (const r of rows) this.set({ model: r.model }, r[field]);
      },
    });
  }

  const perRoute = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof duration.labels> }
  >();
  return {
    registry,
    /** Called once per answered request (onResponse). */
    observeRequest(method: string, route: string, status: number, seconds: number) {
      // The labelled series of each (method, route, status), looked up once: prom-client hashes
      // a label object on every call otherwise (issue 15: a per-request cost of every route).
      // Bounded as the series themselves are (route patterns, never raw URLs).
      const key = `${method} ${status} ${route}`;
      let series = perRoute.get(key);
      if (!series) {
        series = {
          count: requests.labels({ method, route, status: String(status) }),
          time: duration.labels({ method, route }),
        };
        perRoute.set(key, series);
      }
      series.count.inc();
      series.time.observe(seconds);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
