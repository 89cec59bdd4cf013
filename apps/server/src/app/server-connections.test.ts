import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { seedOnFirstStart } from '../modules/system/system.usecases.ts';
import { createTestDatabase, testConfig } from '../test/test-app.ts';
import { buildServer } from './server.ts';

// Real sockets, not inject(): draining on close and the request timeouts happen on the connection.
describe('graceful shutdown', () => {
  it('finishes an in-flight request before closing', async () => {
    const database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const app = await buildServer({ config: testConfig(), database, webDist: '/nonexistent' });
    let started: () => void = () => undefined;
    const inHandler = new Promise<void>((r) => {
      started = r;
    });
    app.get('/api/test/slow', async () => {
      started();
      await new Promise((r) => setTimeout(r, 300));
      return { success: true, code: '200', message: '成功', data: 'done' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const inflight = fetch(`http://127.0.0.1:${port}/api/test/slow`).then((r) => r.json());
    // Closed once the request is being answered (a fixed wait lost the race on a loaded runner:
    // the request arrived after close began and got the closing 503).
    await inHandler;
    await app.close();
    expect(await inflight).toMatchObject({ data: 'done' });
    await database.close();
  });
});

describe('request timeouts (issue 26)', () => {
  it('answers 408 and closes a socket that trickles its body past REQUEST_TIMEOUT_S', async () => {
    const database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const app = await buildServer({
      config: testConfig({ REQUEST_TIMEOUT_S: '2', HEADERS_TIMEOUT_S: '1' }),
      database,
      webDist: '/nonexistent',
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000\r\n\r\n{',
      );
      // One byte every 200 ms: never idle, never done.
      const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      const closedAfter = await new Promise<number>((resolve) => {
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', () => undefined);
        // Without a timeout the server would hold it for good: give up well past the limit.
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 8_000).unref();
      });
      clearInterval(trickle);
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"408"');
      // The limit (2 s) plus the server's once-a-second check, with room for a loaded machine.
      expect(closedAfter).toBeGreaterThanOrEqual(1_900);
      expect(closedAfter).toBeLessThan(5_000);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('answers 408 to a client that never finishes its headers (HEADERS_TIMEOUT_S)', async () => {
    const database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const app = await buildServer({
      config: testConfig({ REQUEST_TIMEOUT_S: '5', HEADERS_TIMEOUT_S: '1' }),
      database,
      webDist: '/nonexistent',
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
      const trickle = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 200);
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      const closedAfter = await new Promise<number>((resolve) => {
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', () => undefined);
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 8_000).unref();
      });
      clearInterval(trickle);
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAfter).toBeLessThan(4_000);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('keeps an idle keep-alive connection past the limits: its next request is answered', async () => {
    const database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const app = await buildServer({
      config: testConfig({ REQUEST_TIMEOUT_S: '2', HEADERS_TIMEOUT_S: '1' }),
      database,
      webDist: '/nonexistent',
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      const request = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';
      socket.write(request);
      await expect.poll(() => answer, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
      answer = '';
      // Idle for longer than both limits, then a second request on the same connection.
      await new Promise((r) => setTimeout(r, 3_500));
      expect(socket.destroyed).toBe(false);
      socket.write(request);
      await expect.poll(() => answer, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
      socket.destroy();
    } finally {
      await app.close();
      await database.close();
    }
  });
});
