import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SmsDriver } from '../sms/index.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  path: string;
}

/**
 * A real local HTTP receiver for webhooks: records every request (headers, raw body) and answers
 * the statuses queued in `answers` (then 200).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, raw, path: req.url ?? '/' });
      const status = answers.shift() ?? 200;
      if (status === 302) res.setHeader('location', 'http://127.0.0.1:1/elsewhere');
      res.statusCode = status;
      res.end(status === 200 ? 'ok' : `boom ${status}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    answers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An SMS driver that records the notices it was asked to send. */
export function recordingSms() {
  const sent: { phone: string; title: string; text: string }[] = [];
  const driver: SmsDriver = {
    kind: 'console',
    send: async () => {},
    sendNotice: async ({ phone, notice }) => {
      if (notice.kind === 'EVENT') sent.push({ phone, title: notice.title, text: notice.text });
    },
  };
  return { driver, sent };
}
