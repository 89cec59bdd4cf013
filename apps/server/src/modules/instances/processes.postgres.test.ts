import type { ChildProcess } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { databaseUrlOf, freePort, killProcess, startServerProcess } from '../../test/server-process.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';
import { runMixedLoad, type Send } from './replicas.test-helpers.ts';

/** An answer of a real server, read once: status and parsed body. */
async function call(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { statusCode: res.status, json: () => JSON.parse(text), text };
}

// Two real server processes (main.ts, tasks on) on one PostgreSQL, as production runs replicas.
describe.runIf(process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    h = await instanceTestApp(systemClock);
    await h.t.db.update(hostGpus).set({ reservedReason: null });
    const url = await databaseUrlOf(h.t.db);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      children.push(await startServerProcess(url, port));
      ports.push(port);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.map((c) => killProcess(c, 'SIGTERM')));
    await h.t.close();
  });

  it('a create/renew/recharge load over both keeps every account = Σ ledger and no GPU or port twice', async () => {
    let turn = 0;
    const send: Send = (method, url, headers, body) =>
      call(ports[turn++ % ports.length] as number, method, url, headers, body);
    // The processes' own provisioning jobs take every create out of CREATING.
    const settle = async () => {
      const deadline = Date.now() + 60_000;
      while ((await h.t.db.$count(instances, eq(instances.status, 'CREATING'))) > 0) {
        if (Date.now() > deadline) throw new Error('creates still CREATING a minute after the load');
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await runMixedLoad(h, send, settle, '2 server processes');
  }, 120_000);
});
