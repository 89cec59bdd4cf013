import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { excerptOf } from './notifications.models.ts';

/** One try's outcome: ok when the receiver answered 2xx. */
export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  responseExcerpt: string;
  durationMs: number;
}

export interface WebhookSenderSettings {
  /** Loopback and private addresses are reachable (tests' local receivers); off in production. */
  allowPrivate: boolean;
  timeoutMs: number;
}

/**
 * Where a customer's URL must never lead in production (SSRF): loopback, "this network",
 * private and shared ranges, link-local (cloud metadata), multicast and reserved.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

export const isBlockedAddress = (address: string) => {
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

class BlockedAddressError extends Error {}

/** DNS as usual, but an address in BLOCKED fails the connection: checked where it is used (no rebinding). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (bad || list.length === 0) {
      return callback(new BlockedAddressError(`地址 ${bad?.address ?? hostname} 不允许访问`), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/**
 * POSTs `body` to `url` once: a short timeout, redirects never followed (a 3xx is a failed
 * try), and outside `allowPrivate` no loopback or private address, whether named by the URL or
 * resolved from its host name.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  settings: WebhookSenderSettings,
): Promise<SendResult> {
  const started = performance.now();
  const done = (ok: boolean, responseStatus: number | null, text: string): SendResult => ({
    ok,
    responseStatus,
    responseExcerpt: excerptOf(text),
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(false, null, '回调地址无效'));
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!settings.allowPrivate && isIP(host) && isBlockedAddress(host)) {
    return Promise.resolve(done(false, null, `地址 ${host} 不允许访问`));
  }
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
  if (!client) return Promise.resolve(done(false, null, '回调地址必须是 http 或 https'));
  return new Promise((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'gpu-cloud-webhook/1',
          ...headers,
        },
        timeout: settings.timeoutMs,
        ...(settings.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          // Only the start is kept; the rest is read and dropped so the socket can close.
          if (text.length < 1000) text += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve(done(status >= 200 && status < 300, status, text));
        });
        res.on('error', (err) => resolve(done(false, status(res), `读取应答失败：${err.message}`)));
      },
    );
    // The whole exchange, not only each quiet spell, has the time limit.
    const deadline = setTimeout(
      () => req.destroy(new Error(`${settings.timeoutMs / 1000} 秒内无应答`)),
      settings.timeoutMs,
    );
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`${settings.timeoutMs / 1000} 秒内无应答`)));
    req.on('error', (err) => resolve(done(false, null, `请求失败：${err.message}`)));
    req.end(body);
  });
}

const status = (res: http.IncomingMessage) => res.statusCode ?? null;
