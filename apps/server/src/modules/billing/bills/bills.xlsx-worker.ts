/**
 * The xlsx export's worker thread (bills.xlsx-thread.ts keeps a few): writes one workbook at a
 * time from the batches the request's thread posts, and posts the bytes back as ExcelJS makes
 * them. A worker lives on between exports, so ExcelJS runs compiled (a fresh one is 2× slower).
 * Messages in: { start }, then batches of rows (their cells: bills.export.ts xlsxRow), then
 * null for the end.
 * Out: { next } (send the next batch), { bytes }, then { done } or { error }.
 */
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { writeXlsxRows, type XlsxRow } from './bills.export.ts';

const port = parentPort;
if (!port) throw new Error('bills.xlsx-worker runs as a worker thread');

let waiting: ((batch: XlsxRow[] | null) => void) | null = null;
const arrived: (XlsxRow[] | null)[] = [];

async function* batches(): AsyncGenerator<XlsxRow[]> {
  while (true) {
    port?.postMessage({ next: true });
    const batch =
      arrived.length > 0
        ? arrived.shift()
        : await new Promise<XlsxRow[] | null>((r) => {
            waiting = r;
          });
    if (!batch) return;
    yield batch;
  }
}

function write() {
  // Copied, not transferred: ExcelJS's chunks may be views of a pooled buffer.
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      port?.postMessage({ bytes: chunk });
      done();
    },
  });
  // ExcelJS ends `out` itself and resolves once it has finished: every byte is posted by then.
  writeXlsxRows(batches(), out).then(
    () => port?.postMessage({ done: true }),
    (err: Error) => port?.postMessage({ error: err.message }),
  );
}

port.on('message', (m: { start: true } | XlsxRow[] | null) => {
  if (m !== null && !Array.isArray(m)) return write();
  const take = waiting;
  waiting = null;
  if (take) take(m);
  else arrived.push(m);
});
