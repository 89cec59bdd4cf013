import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';
import { createTaskRunner, runExclusively } from './tasks.ts';

const silent = { debug() {}, info() {}, error() {}, warn() {} };
const quiet = silent as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('task runner', () => {
  it('runs each task on its interval, never overlapping itself, and waits for runs in flight on stop', async () => {
    const runner = createTaskRunner(quiet);
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    runner.register({
      name: 'slow',
      intervalMs: 5,
      run: async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(30);
        running--;
        runs++;
      },
    });
    runner.start();
    await sleep(150);
    await runner.stop();
    expect(running).toBe(0);
    expect(maxRunning).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
  });

  it('keeps going after a failed run, and runs a task on demand', async () => {
    const errors: unknown[] = [];
    const runner = createTaskRunner({ ...silent, error: (o: unknown) => errors.push(o) } as never);
    let n = 0;
    runner.register({
      name: 'flaky',
      intervalMs: 60_000,
      run: async () => {
        n++;
        if (n === 1) throw new Error('boom');
      },
    });
    await runner.runNow('flaky');
    await runner.runNow('flaky');
    expect(n).toBe(2);
    expect(errors).toHaveLength(1);
    expect(runner.names()).toEqual(['flaky']);
    expect(() => runner.register({ name: 'flaky', intervalMs: 1, run: async () => {} })).toThrow(/twice/);
    await expect(runner.runNow('nope')).rejects.toThrow(/no task/);
  });
});

describe('task failures are visible', () => {
  it('counts every run and failure per task and logs each failure with the task name and error', async () => {
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const runner = createTaskRunner({
      ...silent,
      error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }),
    } as never);
    let n = 0;
    runner.register({
      name: 'sometimes',
      intervalMs: 60_000,
      run: async () => {
        n++;
        if (n !== 2) throw new Error(`boom ${n}`);
      },
    });
    // A run that throws before it returns a promise is a failure too, not an escaped exception.
    runner.register({
      name: 'sync-throw',
      intervalMs: 60_000,
      run: () => {
        throw new Error('sync boom');
      },
    });
    runner.register({ name: 'fine', intervalMs: 60_000, run: async () => 'ok' });
    for (let i = 0; i < 3; i++) await runner.runNow('sometimes');
    await runner.runNow('sync-throw');
    await runner.runNow('fine');

    const stats = runner.stats();
    expect(stats.sometimes).toMatchObject({
      runs: 3,
      failures: 2,
      consecutiveFailures: 1,
      lastError: 'boom 3',
    });
    expect(stats['sync-throw']).toMatchObject({ runs: 1, failures: 1, lastError: 'sync boom' });
    expect(stats.fine).toMatchObject({ runs: 1, failures: 0, consecutiveFailures: 0, lastError: null });
    expect(logged).toHaveLength(3);
    expect(logged.map((l) => l.obj.task)).toEqual(['sometimes', 'sometimes', 'sync-throw']);
    expect(logged.map((l) => (l.obj.err as Error).message)).toEqual(['boom 1', 'boom 3', 'sync boom']);
    expect(logged[0]?.msg).toContain('sometimes');
  });

  it('counts failures of scheduled runs too', async () => {
    const errors: unknown[] = [];
    const runner = createTaskRunner({ ...silent, error: (o: unknown) => errors.push(o) } as never);
    runner.register({
      name: 'always-fails',
      intervalMs: 5,
      run: async () => {
        throw new Error('down');
      },
    });
    runner.start();
    // Until it has run twice (a loaded machine may give a 5 ms timer far fewer turns than 120 ms
    // suggests), at most 5 s.
    const deadline = Date.now() + 5000;
    while ((runner.stats()['always-fails']?.runs ?? 0) < 2 && Date.now() < deadline) await sleep(10);
    await runner.stop();
    const { runs, failures } = runner.stats()['always-fails'] ?? { runs: 0, failures: 0 };
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(failures).toBe(runs);
    expect(errors).toHaveLength(runs);
  });
});

describe('the app’s tasks', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('registers the payment tasks, which run on demand', async () => {
    expect(t.app.tasks.names()).toEqual(
      expect.arrayContaining(['payments.close-expired-orders', 'payments.reconcile-pending-orders']),
    );
    for (const name of t.app.tasks.names()) await t.app.tasks.runNow(name);
  });

  it('runExclusively lets one holder of a named lock in at a time', async () => {
    const order: string[] = [];
    let inside = false;
    const first = runExclusively(t.db, 'test-lock', async () => {
      inside = true;
      order.push('first');
      await sleep(20);
      inside = false;
    });
    const ran = await first;
    expect(ran).toBe(true);
    expect(inside).toBe(false);
    // Nested: the lock is held by the outer transaction, so a second holder (another session) is refused.
    if (t.database.kind === 'postgres') {
      await runExclusively(t.db, 'test-lock-2', async () => {
        expect(
          await runExclusively(t.db, 'test-lock-2', async () => {
            order.push('never');
          }),
        ).toBe(false);
      });
    }
    expect(order).toEqual(['first']);
  });
});
