import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The goal for the bills export. */
export const EXPORT_GOAL_ROWS_PER_S = 50_000;
/** Peak RSS growth an export of every row may show over one of a tenth of them: batches, not rows. */
const CONSTANT_MEMORY_SLACK_MB = 32;

const MB = 1024 * 1024;

export interface ExportFigure {
  format: 'csv' | 'xlsx';
  rows: number;
  rowsPerSec: number;
  /** Peak RSS of the process (server and client) while the export ran, MB. */
  peakRssMb: number;
  /** Peak RSS over the RSS before the export (after a GC), MB: for every row, and for a tenth of them. */
  growthMb: number;
  partRows: number;
  partGrowthMb: number;
  met: boolean;
}

let gc: (() => void) | undefined;
function collect() {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** One export: rows (lines of the CSV, or the count the list gave), seconds, peak RSS over the run. */
async function exportOnce(url: string, headers: Record<string, string>) {
  collect();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  const res = await fetch(url, { headers });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let newlines = 0;
  // Read and dropped as it arrives, as a browser writes a download to disk.
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  return { seconds, newlines, peakMb: peak / MB, growthMb: (peak - before) / MB };
}

/**
 * GET /api/v2/billing/export of every bill line of the customer (the whale), CSV and xlsx; and
 * of the last tenth of its year (a date filter), so that RSS growth can be compared: an export
 * that streams grows by its batches whatever the rows, one that collects grows with them.
 */
export async function measureExports(base: string, headers: Record<string, string>): Promise<ExportFigure[]> {
  const total = async (query: string) => {
    const res = await fetch(`${base}/api/v2/billing/records?page=1&size=1${query}`, { headers });
    return ((await res.json()) as { data: { total: number } }).data.total;
  };
  const day = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
  const partQuery = `&from=${day(new Date(Date.now() - 36.5 * 86_400_000))}`;
  const rows = await total('');
  const partRows = await total(partQuery);
  const out: ExportFigure[] = [];
  for (const format of ['csv', 'xlsx'] as const) {
    const url = `${base}/api/v2/billing/export?format=${format}`;
    await exportOnce(`${url}${partQuery}`, headers); // warm-up: first-run compilation is not the figure
    const part = await exportOnce(`${url}${partQuery}`, headers);
    const all = await exportOnce(url, headers);
    // CSV: a header line and one line per row; the list's total must be what the file holds.
    if (format === 'csv' && all.newlines !== rows + 1)
      throw new Error(`CSV export has ${all.newlines - 1} rows, the list says ${rows}`);
    const rowsPerSec = Math.round(rows / all.seconds);
    out.push({
      format,
      rows,
      rowsPerSec,
      peakRssMb: Math.round(all.peakMb),
      growthMb: Math.round(all.growthMb),
      partRows,
      partGrowthMb: Math.round(part.growthMb),
      met: rowsPerSec >= EXPORT_GOAL_ROWS_PER_S && all.growthMb <= part.growthMb + CONSTANT_MEMORY_SLACK_MB,
    });
  }
  return out;
}
