import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { type ExportBill, writeBillsXlsx, xlsxRow } from './bills.export.ts';

/**
 * xlsx exports written in worker threads at once, at most (each holds ExcelJS and a batch,
 * ~40 MB); more at the same moment are written on the request's thread, as all were before.
 */
export const XLSX_WORKERS_MAX = 2;
/** Workers between exports (unref'd: they never keep the process alive). */
const idle: Worker[] = [];
let busy = 0;

/**
 * The bundle's worker file, built next to main.js; from the TypeScript source (tsx, tests) the
 * worker registers tsx first (Node 20 does not carry a parent's --import hooks into a worker's
 * entry). An eval'd worker resolves 'tsx' from the working directory: the repository's.
 */
const fromSource = import.meta.url.endsWith('.ts');
const startWorker = () => {
  const worker = fromSource
    ? new Worker(
        `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(
          new URL('./bills.xlsx-worker.ts', import.meta.url).href,
        )}); })`,
        { eval: true, execArgv: [] },
      )
    : new Worker(new URL('./xlsx-worker.js', import.meta.url));
  // One that ends while idle (it should not) is not handed to the next export.
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
};

type FromWorker = { bytes: Uint8Array } | { next: true } | { done: true } | { error: string };

/**
 * writeBillsXlsx in a worker thread (issue 33): ExcelJS costs ~15 µs a row, which on the request's
 * thread held every other request back for the whole export and capped it below 50,000 rows/s.
 * Here the request's thread only reads the batches and passes bytes on, so the two overlap.
 * A batch is sent when the worker asks for it and the body has room (a slow client slows the
 * reads: what is held is the few batches the compressor has taken in but not yet given out);
 * a client that goes away ends the worker.
 */
export async function writeBillsXlsxOffThread(
  batches: AsyncIterable<ExportBill[]>,
  out: Writable,
  opts: { maxWorkers?: number } = {},
): Promise<void> {
  const worker = busy < (opts.maxWorkers ?? XLSX_WORKERS_MAX) ? (idle.pop() ?? startWorker()) : null;
  if (!worker) return writeBillsXlsx(batches, out);
  busy++;
  worker.ref();
  let clean = false;
  try {
    clean = await pump(worker, batches, out);
  } finally {
    busy--;
    if (clean && idle.length < XLSX_WORKERS_MAX) {
      worker.unref();
      idle.push(worker);
    } else await worker.terminate();
  }
}

/** One export through `worker`; true when it ended as it should (the worker can serve another). */
async function pump(worker: Worker, batches: AsyncIterable<ExportBill[]>, out: Writable): Promise<boolean> {
  const source = batches[Symbol.asyncIterator]();
  let asked = 0;
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  let finished = false;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const fail = (err: Error) => {
    failure ??= err;
    poke();
  };
  const onMessage = (m: FromWorker) => {
    if ('bytes' in m) {
      if (!out.destroyed) out.write(m.bytes);
    } else if ('next' in m) asked++;
    else if ('done' in m) finished = true;
    else fail(new Error(`xlsx worker: ${m.error}`));
    poke();
  };
  const onExit = (code: number) => fail(new Error(`xlsx worker exited (${code})`));
  const onClose = () => fail(new Error('the download was closed'));
  worker.on('message', onMessage).on('error', fail).on('exit', onExit);
  out.on('close', onClose).on('drain', poke);
  const until = (ready: () => boolean): Promise<void> =>
    ready() || failure
      ? Promise.resolve()
      : new Promise<void>((r) => {
          wake = r;
        }).then(() => until(ready));
  let sending = true;
  try {
    worker.postMessage({ start: true });
    while (sending) {
      // The next batch is read from the database while the worker writes the one before.
      const next = await source.next();
      // Cells made here (times and amounts formatted), while the worker is busy: it only writes
      // them, and arrays of plain values are cheaper to pass than the bills.
      const rows = next.done ? null : next.value.map(xlsxRow);
      await until(() => asked > 0 && !out.writableNeedDrain);
      if (failure) break;
      asked--;
      worker.postMessage(rows);
      sending = !next.done;
    }
    await until(() => finished);
  } finally {
    if (sending) await source.return?.();
    worker.off('message', onMessage).off('error', fail).off('exit', onExit);
    out.off('close', onClose).off('drain', poke);
  }
  if (!finished) throw failure ?? new Error('xlsx worker stopped');
  out.end();
  return true;
}
