import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './db/test-utils.ts';
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
