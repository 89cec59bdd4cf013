import { unitsToYuan } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { IMAGE, type instanceTestApp } from '../../test/instances.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { billingRecords } from '../instances/instances.tables.ts';
import { vouchers } from './vouchers.tables.ts';

export type H = Awaited<ReturnType<typeof instanceTestApp>>;
type User = Awaited<ReturnType<H['funded']>>;

export const T0 = new Date('2026-12-01T02:00:00Z');
export const DAY = 86_400_000;

/**
 * Voucher configs, distributions and reads against one test file's app. Each file passes its own:
 * test files share modules in a worker (isolate: false), so nothing here may keep an app.
 */
export function voucherCalls(app: () => H, admin: () => Record<string, string>) {
  let seq = 0;
  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: object,
    payload?: unknown,
  ) =>
    app().t.app.inject({
      method,
      url,
      headers: headers as Record<string, string>,
      payload: payload as object,
    });

  async function config(body: Record<string, unknown>) {
    const res = await inject('POST', '/api/admin/vouchers/configs', admin(), {
      name: `测试券${++seq}`,
      faceAmount: 10,
      validDays: 30,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; issuedCount: number };
  }
  async function distribute(configId: number, phones: string[], requestId = `req-${++seq}-abcdefgh`) {
    const res = await inject('POST', '/api/admin/voucher-distribution/execute', admin(), {
      configId,
      requestId,
      target: { type: 'phones', phones },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  /** A funded user holding one voucher of a new config. */
  async function withVoucher(cfg: Record<string, unknown>, yuan = 100) {
    const u = await app().funded(yuan);
    const { id: configId } = await config(cfg);
    await distribute(configId, [u.user.phone]);
    const list = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list;
    return { u, configId, voucher: list[0] as { id: number; voucherCode: string; amount: number } };
  }
  const remaining = async (id: number) =>
    unitsToYuan((await app().t.db.select().from(vouchers).where(eq(vouchers.id, id)))[0]?.remaining ?? -1);
  const create = (u: User, body: Record<string, unknown>) =>
    app().create(u.headers, {
      instanceName: 'v',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
      ...body,
    });
  const bills = async (instanceId: number) => {
    const rows = await app()
      .t.db.select()
      .from(billingRecords)
      .where(eq(billingRecords.instanceId, instanceId));
    return {
      paid: unitsToYuan(rows.reduce((n, r) => n + r.amount, 0)),
      byVoucher: unitsToYuan(rows.reduce((n, r) => n + r.voucherAmount, 0)),
    };
  };

  const regionIdOf = async (code: string) =>
    (await app().t.db.select().from(regions).where(eq(regions.code, code)))[0]?.id as number;

  return { inject, config, distribute, withVoucher, remaining, create, bills, regionIdOf };
}
