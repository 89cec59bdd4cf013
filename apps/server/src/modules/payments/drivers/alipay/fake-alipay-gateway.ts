import { createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Alipay's gateway (tests only): it checks the application's RSA2
 * signature on every call, answers trade.precreate / query / close signed with its own
 * RSA-2048 key, and builds signed async notifications. Offline, protocol-level.
 */
export interface FakeTrade {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  /** Alipay knows a precreated trade only once the QR is scanned. */
  scanned: boolean;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string;
}

const pem = (
  k: { export(o: { type: 'spki' | 'pkcs8' | 'pkcs1'; format: 'pem' }): string | Buffer },
  type: 'spki' | 'pkcs8' | 'pkcs1',
) => String(k.export({ type, format: 'pem' }));

export const FAKE_APP_ID = '2021000000000001';
export const FAKE_SELLER_ID = '2088000000000001';

function signString(params: Record<string, string>, exclude: string[]) {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeAlipayGateway() {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const trades = new Map<string, FakeTrade>();
  const calls: { method: string; bizContent: Record<string, unknown>; validSignature: boolean }[] = [];
  const state = { delayMs: 0, failNext: 0 };
  /** Someone who is not Alipay, for forged notifications. */
  let otherKey: ReturnType<typeof generateKeyPairSync>['privateKey'] | undefined;

  const signAsAlipay = (content: string) =>
    createSign('RSA-SHA256').update(content, 'utf8').sign(alipay.privateKey, 'base64');

  const answer = (method: string, body: Record<string, unknown>) => {
    const key = `${method.replaceAll('.', '_')}_response`;
    const json = JSON.stringify(body);
    return `{"${key}":${json},"sign":"${signAsAlipay(json)}"}`;
  };
  const notExist = {
    code: '40004',
    msg: 'Business Failed',
    sub_code: 'ACQ.TRADE_NOT_EXIST',
    sub_msg: '交易不存在',
  };

  function handle(method: string, biz: Record<string, string>): Record<string, unknown> {
    const trade = trades.get(biz.out_trade_no ?? '');
    switch (method) {
      case 'alipay.trade.precreate': {
        if (!trade) {
          trades.set(biz.out_trade_no as string, {
            outTradeNo: biz.out_trade_no as string,
            totalAmount: biz.total_amount as string,
            subject: biz.subject as string,
            scanned: false,
            status: 'WAIT_BUYER_PAY',
            tradeNo: `2026${randomBytes(10).toString('hex')}`,
          });
        }
        return {
          code: '10000',
          msg: 'Success',
          out_trade_no: biz.out_trade_no,
          qr_code: `https://qr.alipay.com/fake${biz.out_trade_no}`,
        };
      }
      case 'alipay.trade.query':
        if (!trade?.scanned) return notExist;
        return {
          code: '10000',
          msg: 'Success',
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
          trade_status: trade.status,
          total_amount: trade.totalAmount,
        };
      case 'alipay.trade.close':
        if (!trade) return notExist;
        if (trade.status === 'TRADE_SUCCESS') {
          return {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_STATUS_ERROR',
            sub_msg: '交易状态不合法',
          };
        }
        trade.status = 'TRADE_CLOSED';
        return { code: '10000', msg: 'Success', out_trade_no: trade.outTradeNo, trade_no: trade.tradeNo };
      default:
        return { code: '40004', msg: 'Business Failed', sub_code: 'isv.method-not-supported' };
    }
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    Object.assign(params, Object.fromEntries(new URLSearchParams(await readBody(req))));
    const method = params.method ?? '';
    const validSignature = createVerify('RSA-SHA256')
      .update(signString(params, ['sign']), 'utf8')
      .verify(app.publicKey, params.sign ?? '', 'base64');
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    calls.push({ method, bizContent: biz, validSignature });
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    if (res.destroyed) return;
    res.setHeader('content-type', 'application/json;charset=utf-8');
    if (state.failNext > 0) {
      state.failNext--;
      res.statusCode = 502;
      res.end('bad gateway');
      return;
    }
    if (!validSignature || params.app_id !== FAKE_APP_ID) {
      res.end(answer(method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature' }));
      return;
    }
    res.end(answer(method, handle(method, biz)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  /** A notification as Alipay posts it: every field but sign/sign_type signed, sorted, raw. */
  function notification(
    trade: FakeTrade,
    overrides: Record<string, string> = {},
    opts: { signWith?: 'alipay' | 'other' } = {},
  ): Record<string, string> {
    const params: Record<string, string> = {
      notify_time: '2026-11-22 16:00:00',
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(8).toString('hex'),
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      app_id: FAKE_APP_ID,
      seller_id: FAKE_SELLER_ID,
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: trade.totalAmount,
      receipt_amount: trade.totalAmount,
      subject: trade.subject,
      gmt_payment: '2026-11-22 16:00:00',
      ...overrides,
    };
    let key = alipay.privateKey;
    if (opts.signWith === 'other') {
      otherKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      key = otherKey;
    }
    params.sign = createSign('RSA-SHA256')
      .update(signString(params, ['sign', 'sign_type']), 'utf8')
      .sign(key, 'base64');
    return params;
  }

  return {
    url: `http://127.0.0.1:${port}/gateway.do`,
    trades,
    calls,
    state,
    /** Settings for our server: the app's private key (PKCS#8 PEM) and Alipay's public key. */
    config: {
      PAYMENT_PROVIDER: 'alipay',
      ALIPAY_APP_ID: FAKE_APP_ID,
      ALIPAY_SELLER_ID: FAKE_SELLER_ID,
      ALIPAY_PRIVATE_KEY: pem(app.privateKey, 'pkcs8'),
      ALIPAY_PUBLIC_KEY: pem(alipay.publicKey, 'spki'),
      ALIPAY_GATEWAY: `http://127.0.0.1:${port}/gateway.do`,
      PUBLIC_BASE_URL: 'https://pay.example.test',
    } as Record<string, string>,
    appPrivateKeyPkcs1: pem(app.privateKey, 'pkcs1'),
    /** The customer scans and pays; false when the trade is closed or unknown. */
    pay(outTradeNo: string): FakeTrade | null {
      const t = trades.get(outTradeNo);
      if (!t || t.status === 'TRADE_CLOSED') return null;
      t.scanned = true;
      t.status = 'TRADE_SUCCESS';
      return t;
    },
    scan(outTradeNo: string) {
      const t = trades.get(outTradeNo);
      if (t) t.scanned = true;
      return t ?? null;
    },
    notification,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeAlipayGateway = Awaited<ReturnType<typeof startFakeAlipayGateway>>;
