import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** One answer: status, JSON (or raw text) body. */
export type Answer = { status: number; json?: unknown; text?: string };
type Route = { method: string; path: RegExp; answers: Answer[] };

const readBody = (req: IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      try {
        resolve(raw ? JSON.parse(raw) : undefined);
      } catch {
        resolve(raw);
      }
    });
  });

/**
 * A Docker Engine API stand-in on a unix socket that replays recorded answers and keeps every
 * request, so a test can check exactly what dockerode sent. Answers per route are used in
 * order; the last one repeats.
 */
export async function startRecordedEngine() {
  const dir = mkdtempSync(path.join(tmpdir(), 'recorded-engine-'));
  const socketPath = path.join(dir, 'docker.sock');
  const routes: Route[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://engine');
    const apiPath = url.pathname.replace(/^\/v[\d.]+/, '');
    requests.push({
      method: req.method ?? '',
      path: apiPath,
      query: url.searchParams,
      body: await readBody(req),
    });
    const route = routes.find((r) => r.method === req.method && r.path.test(apiPath));
    const answer = route ? (route.answers.length > 1 ? route.answers.shift() : route.answers[0]) : undefined;
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `page not found: ${req.method} ${apiPath}` }));
      return;
    }
    if (answer.text !== undefined) {
      res.writeHead(answer.status, { 'content-type': 'application/vnd.docker.raw-stream' });
      res.end(answer.text);
      return;
    }
    res.writeHead(answer.status, answer.json === undefined ? {} : { 'content-type': 'application/json' });
    res.end(answer.json === undefined ? undefined : JSON.stringify(answer.json));
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    requests,
    on(method: string, apiPath: RegExp, ...answers: Answer[]) {
      routes.unshift({ method, path: apiPath, answers });
    },
    /** Requests to a path, in order. */
    sent: (method: string, apiPath: RegExp) =>
      requests.filter((r) => r.method === method && apiPath.test(r.path)),
    reset() {
      routes.length = 0;
      requests.length = 0;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
