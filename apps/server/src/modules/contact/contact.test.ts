import { enquiryMessages } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import { ENQUIRY_LIMITS } from './contact.usecases.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
let seq = 0;
const nextPhone = () => `1350000${String(++seq).padStart(4, '0')}`;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

let ipSeq = 0;
/** Each call from its own address unless one is given (the per-address limit has its own test). */
const submit = (payload: object, ip = `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/contact/inquiry',
    payload,
    remoteAddress: ip,
    headers: { 'x-tenant-host': 'localhost' },
  });
const enquiry = (over: object = {}) => ({
  name: '张三',
  phone: nextPhone(),
  company: '某某科技',
  product: 'GPU裸金属服务器',
  quantity: 2,
  question: '需要 8 卡 H100',
  ...over,
});

describe('enquiry form API', () => {
  it('lists the default products, or the tenant’s own list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/contact/products' });
    expect(res.json().data).toEqual(['GPU裸金属服务器', '硬件销售与集成', '算力中心建设', '算力运营管理']);
    const [tenant] = await t.db.select().from(tenants).where(eq(tenants.isDefault, true));
    if (!tenant) throw new Error('no default tenant');
    await t.db
      .update(tenants)
      .set({ config: { ...tenant.config, enquiryProducts: ['A100 整机', 'H800 集群'] } })
      .where(eq(tenants.id, tenant.id));
    t.app.deps.modules.tenants.service.invalidate();
    const own = await t.app.inject({ method: 'GET', url: '/api/contact/products' });
    expect(own.json().data).toEqual(['A100 整机', 'H800 集群']);
    // A product outside the tenant's list is refused.
    expect((await submit(enquiry())).statusCode).toBe(400);
    const ok = await submit(enquiry({ product: 'H800 集群' }));
    expect(ok.statusCode, ok.body).toBe(200);
    await t.db.update(tenants).set({ config: tenant.config }).where(eq(tenants.id, tenant.id));
    t.app.deps.modules.tenants.service.invalidate();
  });

  it('stores a valid enquiry with the success message', async () => {
    const phone = nextPhone();
    const res = await submit(enquiry({ phone, company: '', question: '' }), '10.1.1.1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(enquiryMessages.success);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/admin/enquiries?keyword=${phone}`,
      headers: await t.adminHeaders(),
    });
    expect(list.json().data.total).toBe(1);
    expect(list.json().data.list[0]).toMatchObject({
      phone,
      company: null,
      question: null,
      quantity: 2,
      status: 'NEW',
    });
  });

  it.each([
    [{ name: '' }, enquiryMessages.nameRequired],
    [{ phone: '' }, enquiryMessages.phoneRequired],
    [{ phone: '12-ab' }, enquiryMessages.phoneInvalid],
    [{ product: '' }, enquiryMessages.productRequired],
    [{ quantity: undefined }, enquiryMessages.quantityRequired],
    [{ quantity: 101 }, enquiryMessages.quantityRange],
    [{ quantity: 0 }, enquiryMessages.quantityRange],
    [{ quantity: 2.5 }, enquiryMessages.quantityRange],
  ])('refuses %o with its message and stores nothing', async (over, message) => {
    const phone = nextPhone();
    const res = await submit(enquiry({ phone, ...over }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/admin/enquiries?keyword=${phone}`,
      headers: await t.adminHeaders(),
    });
    expect(list.json().data.total).toBe(0);
  });

  it('limits enquiries per phone and per address, per tenant', async () => {
    const phone = nextPhone();
    for (let i = 0; i < ENQUIRY_LIMITS.perPhone; i++) {
      expect((await submit(enquiry({ phone }), `10.2.0.${i}`)).statusCode).toBe(200);
    }
    const over = await submit(enquiry({ phone }), '10.2.0.99');
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe('提交过于频繁，请稍后再试');

    const ip = '10.3.0.1';
    for (let i = 0; i < ENQUIRY_LIMITS.perIp; i++) expect((await submit(enquiry(), ip)).statusCode).toBe(200);
    expect((await submit(enquiry(), ip)).statusCode).toBe(429);
    // The next window starts afresh.
    clock.advance(ENQUIRY_LIMITS.windowMs);
    expect((await submit(enquiry(), ip)).statusCode).toBe(200);
  });
});

describe('admin enquiries', () => {
  it('filters by status and marks one handled, audited', async () => {
    const phone = nextPhone();
    expect((await submit(enquiry({ phone, name: '王五' }))).statusCode).toBe(200);
    const admin = await t.adminHeaders();
    const page = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/enquiries?status=NEW&keyword=王五',
        headers: admin,
      })
    ).json().data;
    expect(page.total).toBe(1);
    const id = page.list[0].id;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/enquiries/${id}/handled`,
      headers: admin,
      payload: { note: '已电话联系' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'HANDLED', handledNote: '已电话联系' });
    const handled = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/enquiries?status=HANDLED&keyword=王五',
        headers: admin,
      })
    ).json().data;
    expect(handled.total).toBe(1);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `enquiry:${id}`));
    expect(audit).toMatchObject({ action: 'contact.enquiry_handled' });
    expect(audit?.detail).toMatchObject({ before: { status: 'NEW' }, after: { status: 'HANDLED' } });

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/enquiries/999999/handled',
      headers: admin,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses users and strangers', async () => {
    const { headers } = await t.createUser();
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/enquiries' })).statusCode).toBe(401);
    expect([401, 403]).toContain(
      (await t.app.inject({ method: 'GET', url: '/api/admin/enquiries', headers })).statusCode,
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/enquiries?status=X',
          headers: await t.adminHeaders(),
        })
      ).statusCode,
    ).toBe(400);
  });
});
