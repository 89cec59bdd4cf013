import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApi, normaliseApi } from '../src/api.ts';
import { parseSshCommand } from '../src/commands/power.ts';
import { configDir } from '../src/config.ts';
import { CliError, EXIT, exitForStatus } from '../src/exit.ts';
import { errorsInEnglishToo, resolveLang } from '../src/messages.ts';
import { billingName, displayWidth, shortTime, table } from '../src/output.ts';
import { startProgress } from '../src/progress.ts';

describe('small parts', () => {
  it('shows times in the platform zone (Asia/Shanghai) whatever TZ says, billing types by name', () => {
    expect(shortTime('2026-11-26T10:48:00.000Z')).toBe('2026-11-26 18:48');
    expect(shortTime('2026-11-26T18:48:00.000+08:00')).toBe('2026-11-26 18:48');
    expect(shortTime(null)).toBe('-');
    expect(billingName('hourly', 'zh')).toBe('按量');
    expect(billingName('monthly', 'zh')).toBe('包月');
    expect(billingName('hourly', 'en')).toBe('hourly');
  });

  it('parseSshCommand takes the API form apart and refuses anything else', () => {
    expect(parseSshCommand('ssh -p 30022 root@gpu-1.example.com')).toEqual({
      port: 30022,
      user: 'root',
      host: 'gpu-1.example.com',
    });
    expect(parseSshCommand('ssh root@host')).toBeNull();
    expect(parseSshCommand('rm -rf / ; ssh -p 1 root@h')).toBeNull();
    expect(parseSshCommand('ssh -p 22 root@[2001:db8::1]')).toMatchObject({ host: '[2001:db8::1]' });
    // What ssh would take for options is never run.
    expect(parseSshCommand('ssh -p 22 -oProxyCommand=x@host')).toBeNull();
    expect(parseSshCommand('ssh -p 22 root@-oProxyCommand=x')).toBeNull();
  });

  it('tables line up Chinese (two columns a character) and right-align numbers', () => {
    expect(displayWidth('运行中')).toBe(6);
    const out = table(
      [
        { id: 7, s: '运行中' },
        { id: 12, s: 'ok' },
      ],
      [
        { zh: '编号', en: 'ID', value: (r) => r.id, right: true },
        { zh: '状态', en: 'STATUS', value: (r) => r.s },
      ],
      'zh',
    );
    expect(out.split('\n')).toEqual(['编号  状态', '   7  运行中', '  12  ok']);
  });

  it('language: flag, then GPU_LANG, then LANG; Chinese unless English is asked for', () => {
    expect(resolveLang(undefined, {})).toBe('zh');
    expect(resolveLang(undefined, { LANG: 'en_US.UTF-8' })).toBe('en');
    expect(resolveLang('zh', { LANG: 'en_US.UTF-8' })).toBe('zh');
    expect(resolveLang(undefined, { GPU_LANG: 'en', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(errorsInEnglishToo(undefined, { LANG: 'C.UTF-8' })).toBe(true);
    expect(errorsInEnglishToo(undefined, { LANG: 'zh_CN.UTF-8' })).toBe(false);
  });

  it('the API address: /api and trailing slashes go; anything but http(s) is a usage error', () => {
    expect(normaliseApi('https://gpu.example.com/api/', 'zh')).toBe('https://gpu.example.com');
    expect(normaliseApi(' http://127.0.0.1:8080 ', 'zh')).toBe('http://127.0.0.1:8080');
    for (const bad of ['gpu.example.com', 'ftp://gpu.example.com'])
      expect(() => normaliseApi(bad, 'zh')).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
  });

  it('config folder: XDG_CONFIG_HOME, else ~/.config; %APPDATA% on Windows', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe(path.join('/x', 'gpu'));
    expect(configDir({}, 'linux')).toMatch(/\.config[/\\]gpu$/);
    expect(configDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      path.join('C:\\Users\\a\\AppData\\Roaming', 'gpu'),
    );
  });

  it('exit codes by status', () => {
    expect([400, 401, 403, 404, 409, 422, 429, 500, 503].map(exitForStatus)).toEqual([
      2, 3, 3, 4, 2, 2, 2, 6, 6,
    ]);
  });

  it('progress: a spinner line on a terminal, one line per status otherwise', () => {
    const fake = (isTTY: boolean) => {
      const out: string[] = [];
      return { out, stream: { isTTY, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream };
    };
    const tty = fake(true);
    const p = startProgress('等待实例 3', tty.stream);
    p.update('创建中');
    p.stop();
    const clear = '\r\x1b[2K';
    expect(tty.out[0]?.startsWith(clear)).toBe(true);
    expect(tty.out[0]?.slice(clear.length)).toMatch(/^. 等待实例 3: 创建中 \(0s\)$/);
    expect(tty.out.at(-1)).toBe('\r\x1b[2K');
    const log = fake(false);
    const q = startProgress('等待实例 3', log.stream);
    for (const s of ['创建中', '创建中', '运行中']) q.update(s);
    q.stop();
    expect(log.out).toEqual(['等待实例 3: 创建中\n', '等待实例 3: 运行中\n']);
  });
});

describe('API client retries', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());
  /** A server answering 503 first, then the envelope; it notes every request's headers. */
  async function flaky(firstStatus = 503) {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      if (seen.length === 1) {
        res.statusCode = firstStatus;
        return res.end(
          JSON.stringify({ success: false, code: String(firstStatus), message: '服务暂不可用', data: null }),
        );
      }
      res.end(JSON.stringify({ success: true, code: '200', message: '成功', data: { id: 1 } }));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    close = () => server.close();
    return { seen, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('a keyed POST is sent again after a 503, with the same Idempotency-Key', async () => {
    const { seen, base } = await flaky();
    const api = createApi(base, 'tok', 'zh');
    expect(await api.post('/api/x', { body: {}, idempotencyKey: 'cli-key-12345678' })).toEqual({ id: 1 });
    expect(seen.map((h) => h['idempotency-key'])).toEqual(['cli-key-12345678', 'cli-key-12345678']);
    expect(seen[0]?.authorization).toBe('Bearer tok');
  });

  it('a POST without a key is never repeated: the 503 is the answer (exit 6)', async () => {
    const { seen, base } = await flaky();
    const err = await createApi(base, 'tok', 'zh')
      .post('/api/x', { body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({ exitCode: EXIT.server, message: '服务暂不可用' });
    expect(seen).toHaveLength(1);
  });

  it('an answer that is not the envelope (a wrong address, a proxy page) exits 6', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end('<html>Not Found</html>');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    close = () => server.close();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const err = await createApi(base, 'tok', 'en')
      .get('/api/gpu/instances')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      exitCode: EXIT.server,
      message: expect.stringContaining('did not answer as the platform API'),
    });
  });

  it('a 4xx is not retried even with a key', async () => {
    const { seen, base } = await flaky(422);
    const err = await createApi(base, 'tok', 'zh')
      .post('/api/x', { idempotencyKey: 'cli-key-12345678' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: EXIT.rejected });
    expect(seen).toHaveLength(1);
  });
});
