import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAliyunSmsDriver } from './aliyun-driver.ts';
import { SmsSendError } from './sms-driver.ts';

/** A local stand-in for dysmsapi.aliyuncs.com that records what the SDK sends. */
describe('aliyun SMS driver against a local endpoint', () => {
  const seen: { method: string; url: URL; body: URLSearchParams; headers: IncomingMessage['headers'] }[] = [];
  let answer = { Code: 'OK', Message: 'OK', RequestId: 'r1', BizId: 'b1' };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://x'),
        body: new URLSearchParams(raw),
        headers: req.headers,
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const driver = () =>
    createAliyunSmsDriver({
      accessKeyId: 'AKID',
      accessKeySecret: 'SECRET',
      signName: '算力云',
      templateCode: 'SMS_123',
      endpoint,
    });

  it('sends SendSms with phone, sign, template and the code as template parameter, signed', async () => {
    await driver().send({ phone: '13800138000', code: '246810', purpose: 'REGISTER' });
    const req = seen.at(-1);
    expect(req).toBeDefined();
    const params = new URLSearchParams([...(req?.url.searchParams ?? []), ...(req?.body ?? [])]);
    const headers = req?.headers ?? {};
    const all = { ...Object.fromEntries(params), ...headers } as Record<string, string>;
    expect(all['x-acs-action'] ?? all.Action).toBe('SendSms');
    expect(all['x-acs-version'] ?? all.Version).toBe('2017-05-25');
    expect(params.get('PhoneNumbers')).toBe('13800138000');
    expect(params.get('SignName')).toBe('算力云');
    expect(params.get('TemplateCode')).toBe('SMS_123');
    expect(JSON.parse(params.get('TemplateParam') ?? '{}')).toEqual({ code: '246810' });
    expect(String(headers.authorization ?? params.get('Signature') ?? '')).toContain('AKID');
  });

  it('sends the phone-changed notice with its own template and the new phone masked, no code', async () => {
    const notices = createAliyunSmsDriver({
      accessKeyId: 'AKID',
      accessKeySecret: 'SECRET',
      signName: '算力云',
      templateCode: 'SMS_123',
      noticeTemplateCode: 'SMS_456',
      endpoint,
    });
    await notices.sendNotice({
      phone: '13800138000',
      notice: { kind: 'PHONE_CHANGED', newPhone: '13912345678' },
    });
    const req = seen.at(-1);
    const params = new URLSearchParams([...(req?.url.searchParams ?? []), ...(req?.body ?? [])]);
    expect(params.get('PhoneNumbers')).toBe('13800138000');
    expect(params.get('TemplateCode')).toBe('SMS_456');
    expect(JSON.parse(params.get('TemplateParam') ?? '{}')).toEqual({ phone: '139****5678' });
  });

  it('sends a notification event with its own template, title and content as parameters', async () => {
    const events = createAliyunSmsDriver({
      accessKeyId: 'AKID',
      accessKeySecret: 'SECRET',
      signName: '算力云',
      templateCode: 'SMS_123',
      eventTemplateCode: 'SMS_789',
      endpoint,
    });
    await events.sendNotice({
      phone: '13800138000',
      notice: { kind: 'EVENT', title: '余额不足提醒', text: '您的可用余额为 ¥5.00' },
    });
    const req = seen.at(-1);
    const params = new URLSearchParams([...(req?.url.searchParams ?? []), ...(req?.body ?? [])]);
    expect(params.get('TemplateCode')).toBe('SMS_789');
    expect(JSON.parse(params.get('TemplateParam') ?? '{}')).toEqual({
      title: '余额不足提醒',
      content: '您的可用余额为 ¥5.00',
    });
    const before = seen.length;
    await expect(
      driver().sendNotice({ phone: '13800138000', notice: { kind: 'EVENT', title: 't', text: 'x' } }),
    ).rejects.toBeInstanceOf(SmsSendError);
    expect(seen.length).toBe(before);
  });

  it('refuses a notice when no notice template is set (the caller logs it)', async () => {
    const before = seen.length;
    await expect(
      driver().sendNotice({
        phone: '13800138000',
        notice: { kind: 'PHONE_CHANGED', newPhone: '13912345678' },
      }),
    ).rejects.toBeInstanceOf(SmsSendError);
    expect(seen.length).toBe(before);
  });

  it('turns a refusal into a SmsSendError', async () => {
    answer = { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发流控', RequestId: 'r2', BizId: '' };
    await expect(
      driver().send({ phone: '13800138000', code: '111111', purpose: 'REGISTER' }),
    ).rejects.toBeInstanceOf(SmsSendError);
  });
});
