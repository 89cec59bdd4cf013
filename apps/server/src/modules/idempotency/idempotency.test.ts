import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { instances } from '../instances/instances.tables.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { postLedgerEntry } from '../ledger/ledger.ts';
import { rechargeOrders } from '../payments/payments.tables.ts';
import { requestHash } from './idempotency.models.ts';
import { idempotencyRequests } from './idempotency.tables.ts';
import { PURGE_IDEMPOTENCY_TASK } from './tasks/purge-expired.task.ts';

const T0 = new Date('2026-11-22T08:00:00Z');
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());
// The demo host has 8 GPUs: give them back after each test.
const toRelease: { headers: Record<string, string>; id: number }[] = [];
afterEach(async () => {
  for (const { headers, id } of toRelease.splice(0)) await h.action(headers, 'release', id);
});

let seq = 0;
const newKey = () => `test-key-${Date.now()}-${++seq}`;
type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload?: object) =>
  h.t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const renewal = (headers: Headers, body: object, key?: string) =>
  post(
    '/api/v2/package-billing/manual-renewal',
    { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
    body,
  );
const instanceRow = async (id: number) =>
  (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
const instanceCount = async (userId: number) => h.t.db.$count(instances, eq(instances.userId, userId));
const chargesOf = async (userId: number) =>
  h.t.db.$count(ledgerEntries, and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'charge')));

async function dailyPackage(yuan = 1000) {
  const u = await h.funded(yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf('bj-a-a100-01'),
    instanceName: 'pkg',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'daily',
    duration: 1,
  });
  expect(res.statusCode, res.body).toBe(200);
  toRelease.push({ headers: u.headers, id: res.json().data.id });
  return { u, id: res.json().data.id as number };
}

describe('renewal with an Idempotency-Key', () => {
  it('a retried renewal answers the first result and charges and extends once', async () => {
    const { u, id } = await dailyPackage();
    const before = await instanceRow(id);
    const key = newKey();
    const first = await renewal(u.headers, { instanceId: id, duration: 2 }, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await renewal(u.headers, { instanceId: id, duration: 2 }, key);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    expect(await h.balance(u.user.id)).toBe(1000 - 135 - 270);
    expect(await chargesOf(u.user.id)).toBe(2); // the purchase and one renewal
    expect((await instanceRow(id))?.expiresAt?.getTime()).toBe(
      (before?.expiresAt?.getTime() ?? 0) + 2 * 86_400_000,
    );
  });

  it('the same key with another body is 422 and changes nothing', async () => {
    const { u, id } = await dailyPackage();
    const key = newKey();
    expect((await renewal(u.headers, { instanceId: id, duration: 1 }, key)).statusCode).toBe(200);
    const other = await renewal(u.headers, { instanceId: id, duration: 3 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ success: false, code: '422' });
    expect(other.json().message).toContain('Idempotency-Key');
    expect(other.json().message).toContain('内容不同');
    expect(await h.balance(u.user.id)).toBe(1000 - 135 - 135);
  });

  it('a malformed key is 400 naming the header and changes nothing', async () => {
    const { u, id } = await dailyPackage();
    for (const bad of ['short', 'has space in it', 'x'.repeat(129), '键键键键键键键键键', '']) {
      const res = await renewal(u.headers, { instanceId: id, duration: 1 }, undefined);
      expect(res.statusCode).toBe(200); // sanity: without a header it renews (as before)
      const refused = await post(
        '/api/v2/package-billing/manual-renewal',
        { ...u.headers, 'idempotency-key': bad },
        { instanceId: id, duration: 1 },
      );
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().message).toContain('Idempotency-Key');
    }
    expect(await h.balance(u.user.id)).toBe(1000 - 135 * 6);
  });

  it('without a key two identical renewals are two renewals (as before: the header is the opt-in)', async () => {
    const { u, id } = await dailyPackage();
    expect((await renewal(u.headers, { instanceId: id, duration: 1 })).statusCode).toBe(200);
    expect((await renewal(u.headers, { instanceId: id, duration: 1 })).statusCode).toBe(200);
    expect(await h.balance(u.user.id)).toBe(1000 - 135 * 3);
  });

  it('keys are per user: another user’s request under the same key runs on its own', async () => {
    const a = await dailyPackage();
    const b = await dailyPackage();
    const key = newKey();
    expect((await renewal(a.u.headers, { instanceId: a.id, duration: 1 }, key)).statusCode).toBe(200);
    const other = await renewal(b.u.headers, { instanceId: b.id, duration: 1 }, key);
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.balance(b.u.user.id)).toBe(1000 - 135 * 2);
  });

  it('a failed first answer is the answer: the replay does not run it again', async () => {
    const { u, id } = await dailyPackage(135 + 100);
    const key = newKey();
    const first = await renewal(u.headers, { instanceId: id, duration: 1 }, key);
    expect(first.statusCode).toBe(422); // not enough balance
    // Enough money now: a replay that ran again would renew.
    await h.t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: u.user.id,
        kind: 'recharge',
        amount: 1000 * 10_000,
        idempotencyKey: newKey(),
      }),
    );
    const again = await renewal(u.headers, { instanceId: id, duration: 1 }, key);
    expect(again.statusCode).toBe(422);
    expect(again.body).toBe(first.body);
    expect(await h.balance(u.user.id)).toBe(1100);
    expect((await renewal(u.headers, { instanceId: id, duration: 1 }, newKey())).statusCode).toBe(200);
  });

  it('a replay while the first request is in flight waits, then answers 409 without running', async () => {
    const { u, id } = await dailyPackage();
    const key = newKey();
    const body = { instanceId: id, duration: 1 };
    // The first request holds the claim and has not answered yet.
    await h.t.db.insert(idempotencyRequests).values({
      userId: u.user.id,
      scope: 'instances.renew',
      key,
      requestHash: requestHash({ body, query: {} }),
      startedAt: T0,
      createdAt: T0,
    });
    const started = performance.now();
    const res = await renewal(u.headers, body, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('请求正在处理中，请稍后重试');
    expect(res.headers['retry-after']).toBe('1');
    expect(performance.now() - started).toBeGreaterThan(3_000);
    expect(await h.balance(u.user.id)).toBe(1000 - 135);

    // A claim older than its lease (the process died mid-request) is taken over by a replay.
    clock.set(new Date(T0.getTime() + 6 * 60_000));
    try {
      const retried = await renewal(u.headers, body, key);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(await h.balance(u.user.id)).toBe(1000 - 135 * 2);
    } finally {
      clock.set(T0);
    }
  }, 15_000);
});

describe('create with an Idempotency-Key', () => {
  /** A one-day package on the A100 host, as the subscribe screen sends it. */
  const dailyBody = async (instanceName: string) => ({
    machineId: await h.idOf('bj-a-a100-01'),
    instanceName,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'daily',
    duration: 1,
  });

  it('pressing create again after a timeout answers the first instance and buys once', async () => {
    const u = await h.funded(1000);
    const key = newKey();
    const body = await dailyBody('once');
    const headers = { ...u.headers, 'idempotency-key': key };
    const first = await h.create(headers, body);
    expect(first.statusCode, first.body).toBe(200);
    toRelease.push({ headers: u.headers, id: first.json().data.id });
    // The other path of the same purchase shares the key.
    for (const url of ['/api/gpu/instance/create', '/api/v2/billing/instances/create']) {
      const again = await post(url, headers, body);
      expect(again.statusCode).toBe(200);
      expect(again.json().data.id).toBe(first.json().data.id);
      expect(again.body).toBe(first.body);
    }
    expect(await instanceCount(u.user.id)).toBe(1);
    expect(await chargesOf(u.user.id)).toBe(1);
    expect(await h.balance(u.user.id)).toBe(1000 - 135);
    // The stored answer is sealed: the root password in it is not kept in clear text.
    const [stored] = await h.t.db
      .select()
      .from(idempotencyRequests)
      .where(and(eq(idempotencyRequests.userId, u.user.id), eq(idempotencyRequests.key, key)));
    expect(stored?.responseBody).toBeTruthy();
    expect(stored?.responseBody).not.toContain('"success"');
    const password = first.json().data.sshPassword;
    if (password) expect(stored?.responseBody).not.toContain(password);

    const changed = await h.create(headers, { ...body, duration: 2 });
    expect(changed.statusCode).toBe(422);
    expect(await instanceCount(u.user.id)).toBe(1);
    // A new action with a fresh key buys again, as it should.
    const fresh = await h.create({ ...u.headers, 'idempotency-key': newKey() }, body);
    expect(fresh.statusCode).toBe(200);
    toRelease.push({ headers: u.headers, id: fresh.json().data.id });
    expect(await instanceCount(u.user.id)).toBe(2);
  });
  it('a takeover after a crash between the commit and the stored answer answers the instance bought', async () => {
    const u = await h.funded(1000);
    const key = newKey();
    const body = await dailyBody('crashed');
    const headers = { ...u.headers, 'idempotency-key': key };
    const first = await h.create(headers, body);
    expect(first.statusCode, first.body).toBe(200);
    toRelease.push({ headers: u.headers, id: first.json().data.id });
    // What a process killed before storing its answer leaves: the claim, started, unanswered.
    await h.t.db
      .update(idempotencyRequests)
      .set({ responseStatus: null, responseBody: null, completedAt: null })
      .where(and(eq(idempotencyRequests.userId, u.user.id), eq(idempotencyRequests.key, key)));
    clock.set(new Date(T0.getTime() + 6 * 60_000));
    try {
      const replay = await h.create(headers, body);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json().data.id).toBe(first.json().data.id);
    } finally {
      clock.set(T0);
    }
    expect(await instanceCount(u.user.id)).toBe(1);
    expect(await chargesOf(u.user.id)).toBe(1);
    expect(await h.balance(u.user.id)).toBe(1000 - 135);
  });
});

describe('recharge orders with an Idempotency-Key', () => {
  it('createQrCode and POST /api/user/recharge each create one order per key', async () => {
    const u = await h.funded(0);
    const key = newKey();
    const headers = { ...u.headers, 'idempotency-key': key };
    const qr1 = await post('/api/pay/createQrCode', headers, { amount: 200 });
    const qr2 = await post('/api/pay/createQrCode', headers, { amount: 200 });
    expect(qr1.statusCode, qr1.body).toBe(200);
    expect(qr2.body).toBe(qr1.body);
    expect(qr2.json()).toMatchObject({ code: '200', msg: '二维码生成成功' });
    expect((await post('/api/pay/createQrCode', headers, { amount: 300 })).statusCode).toBe(422);

    // Another operation: the same key is a separate request there.
    const r1 = await post('/api/user/recharge?amount=200', headers);
    const r2 = await post('/api/user/recharge?amount=200', headers);
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r2.body).toBe(r1.body);
    expect(r1.json().data.orderNo).not.toBe(qr1.json().data.orderNo);
    expect((await post('/api/user/recharge?amount=300', headers)).statusCode).toBe(422);
    expect(await h.t.db.$count(rechargeOrders, eq(rechargeOrders.userId, u.user.id))).toBe(2);
  });
});

describe('stored answers', () => {
  it('are purged after a day by the task', async () => {
    const u = await h.funded(0);
    const key = newKey();
    const headers = { ...u.headers, 'idempotency-key': key };
    const first = await post('/api/pay/createQrCode', headers, { amount: 100 });
    expect(first.statusCode).toBe(200);
    clock.set(new Date(T0.getTime() + 24 * 3600_000 - 1000));
    await h.t.app.tasks.runNow(PURGE_IDEMPOTENCY_TASK);
    const kept = eq(idempotencyRequests.userId, u.user.id);
    expect(await h.t.db.$count(idempotencyRequests, kept)).toBe(1);
    clock.set(new Date(T0.getTime() + 24 * 3600_000 + 1000));
    await h.t.app.tasks.runNow(PURGE_IDEMPOTENCY_TASK);
    expect(await h.t.db.$count(idempotencyRequests, kept)).toBe(0);
    expect(h.t.app.tasks.stats()[PURGE_IDEMPOTENCY_TASK]).toMatchObject({ runs: 2, failures: 0 });
    clock.set(T0);
  });
});
