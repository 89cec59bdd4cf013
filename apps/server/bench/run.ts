/**
 * npm run bench: throughput and p99 of the hot read paths, each next to a plain Fastify JSON
 * route measured in the same run on the same machine (the baseline), so the ratio means
 * something whatever the hardware. Uses the embedded PGlite, or DATABASE_URL when set
 * (`scripts/with-postgres.sh npm run bench`: PostgreSQL, and two replicas for the creates).
 * BENCH=market, BENCH=tokens, BENCH=metering, BENCH=creates, BENCH=monitoring or BENCH=scale runs
 * only that part. The scale figures (issue 33: every list at a large deployment's size) need
 * PostgreSQL; SCALE_FRACTION_MAX=0.2 runs them on a fifth of that size.
 */
import Fastify from 'fastify';
import { benchCreates } from './create.bench.ts';
import { type Figure, load } from './load.ts';
import { benchMarket } from './market.bench.ts';
import { benchMetering } from './metering.bench.ts';
import { benchMonitoring } from './monitoring.bench.ts';
import { benchScale } from './scale.bench.ts';
import { benchTokens } from './tokens.bench.ts';

async function baseline(): Promise<Figure> {
  const app = Fastify();
  app.get('/hello', async () => ({ success: true, code: '200', message: '成功', data: { hello: 'world' } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const f = await load(`http://127.0.0.1:${port}/hello`);
  await app.close();
  return { name: 'plain Fastify JSON route (baseline)', ...f };
}

const only = process.env.BENCH;
if (!only || only === 'market' || only === 'tokens') {
  const base = await baseline();
  const rows: Figure[] = [
    base,
    ...(only === 'tokens' ? [] : await benchMarket()),
    ...(only === 'market' ? [] : await benchTokens()),
  ];
  console.log(
    '\nbenchmark (50 connections; 8 s each after 2 s of warm-up, the market and its limits in 4 turns of 3 s)',
  );
  console.log(
    'name'.padEnd(58),
    'req/s'.padStart(9),
    'p99 ms'.padStart(8),
    'vs baseline'.padStart(12),
    'vs its limit'.padStart(13),
  );
  for (const r of rows) {
    const ratio = (r.requestsPerSec / base.requestsPerSec).toFixed(3);
    // The market's goal (issue 33): ≥ 0.9× a plain route sending the same bytes (its limit).
    const limit = r.limitPerSec
      ? `${(r.requestsPerSec / r.limitPerSec).toFixed(3)} ${r.requestsPerSec >= 0.9 * r.limitPerSec ? 'met' : 'NOT met'}`
      : '';
    console.log(
      r.name.padEnd(58),
      String(r.requestsPerSec).padStart(9),
      String(r.p99Ms).padStart(8),
      ratio.padStart(12),
      limit.padStart(13),
    );
  }
  console.log(
    '(vs its limit: the row above it, a plain Fastify route sending the same bytes and headers, measured in turns with it; goal ≥ 0.9)',
  );
  console.log('');
}
if (!only || only === 'metering') for (const line of await benchMetering()) console.log(line);
if (!only || only === 'creates') {
  console.log('');
  for (const line of await benchCreates()) console.log(line);
}
if (!only || only === 'monitoring') {
  console.log('');
  for (const line of await benchMonitoring()) console.log(line);
}
if (!only || only === 'scale') {
  console.log('');
  for (const line of await benchScale()) console.log(line);
}
process.exit(0);
