import {
  formatMoney,
  type Page,
  type PaymentStatus,
  type QrCode,
  type RechargeOrder,
  type RechargeOrderQuery,
  type RechargeOrderStatus,
  rechargeBody,
  rechargeSubject,
  unitsToYuan,
  yuanToUnits,
} from '@gpu/shared';
import type { AuthUser } from '../auth/index.ts';
import { billingErrors, createLedgerRepository, postLedgerEntry } from '../ledger/index.ts';
import { createNoticesRepository } from '../notices/index.ts';
import type { TradeState } from './drivers/payment-driver.ts';
import type { PaymentDeps } from './payments.deps.ts';
import { paymentErrors } from './payments.errors.ts';
import {
  dateBounds,
  isExpired,
  MAX_ORDERS_PER_HOUR,
  MAX_PENDING_ORDERS,
  newOrderNo,
  ORDER_TTL_MS,
  PROVIDER_QUERY_INTERVAL_MS,
  toPaymentStatus,
} from './payments.models.ts';
import { createPaymentsRepository, type RechargeOrderRow } from './payments.repository.ts';

/** The ledger key of an order's credit: whatever happens, one order credits once. */
export const rechargeLedgerKey = (orderNo: string) => `recharge:${orderNo}`;

/** The configured driver if it is the one that took this order (settings may have changed since). */
const driverFor = (deps: PaymentDeps, order: RechargeOrderRow) =>
  deps.payments.kind === order.provider ? deps.payments : null;

/**
 * A PENDING order and the provider's QR string for it (`POST /api/pay/createQrCode`). The subject
 * the customer's Alipay bill shows is ours, "{tenant} 账户充值 ¥1,000.00", never the client's text.
 */
export async function createRecharge(
  deps: PaymentDeps,
  user: AuthUser,
  input: { amount: number; type: 'alipay' },
  tenantName: string,
): Promise<QrCode> {
  const now = deps.now();
  const order = await deps.db.transaction(async (tx) => {
    // One creation at a time per user, so concurrent requests cannot slip past the limits.
    if (!(await createLedgerRepository({ db: tx }).lockAccount(user.id)))
      throw billingErrors.accountMissing();
    const repo = createPaymentsRepository({ db: tx });
    const counts = await repo.recentCounts(user.id, now, new Date(now.getTime() - 3600_000));
    if (counts.pending >= MAX_PENDING_ORDERS) throw paymentErrors.tooManyPending();
    if (counts.recent >= MAX_ORDERS_PER_HOUR) throw paymentErrors.tooManyOrders();
    return repo.insert({
      orderNo: newOrderNo(now),
      tenantId: user.tenantId,
      userId: user.id,
      amount: yuanToUnits(input.amount),
      paymentType: input.type,
      provider: deps.payments.kind,
      subject: rechargeSubject(tenantName, input.amount),
      body: rechargeBody(tenantName),
      expiresAt: new Date(now.getTime() + ORDER_TTL_MS),
      createdAt: now,
      updatedAt: now,
    });
  });
  const repo = createPaymentsRepository(deps);
  let qrCode: string;
  try {
    ({ qrCode } = await deps.payments.createQr(order));
  } catch (err) {
    deps.log.warn({ err, orderNo: order.orderNo }, 'payment provider could not create the QR code');
    await repo.finishUnpaid(order.orderNo, 'FAIL', `qr: ${(err as Error).message}`.slice(0, 500), deps.now());
    throw paymentErrors.qrFailed();
  }
  await repo.setQrCode(order.id, qrCode, deps.now());
  return { qrCode, orderNo: order.orderNo };
}

/**
 * Credits a paid order, exactly once: in one transaction the order flips to SUCCESS with a
 * conditional update (only from `from`, only at its own amount) and only then the ledger row is
 * written under the key `recharge:<orderNo>`. A concurrent or repeated call finds the order no
 * longer in `from` and changes nothing; a crash rolls back both. True when this call credited.
 */
export async function settlePaid(
  deps: Pick<PaymentDeps, 'db' | 'now'>,
  orderNo: string,
  paid: { tradeNo: string; amount: number },
  from: RechargeOrderStatus[] = ['PENDING'],
): Promise<boolean> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const order = await createPaymentsRepository({ db: tx }).markPaid(orderNo, { ...paid, at, from });
    if (!order) return false;
    await postLedgerEntry(tx, {
      userId: order.userId,
      kind: 'recharge',
      amount: order.amount,
      idempotencyKey: rechargeLedgerKey(orderNo),
      reference: { type: 'recharge_order', id: order.id },
      memo: `充值订单 ${orderNo}`,
      at,
    });
    await createNoticesRepository({ db: tx }).notify({
      userId: order.userId,
      event: 'recharge_succeeded',
      title: '充值成功',
      body: `充值订单 ${orderNo} 已到账 ${formatMoney(unitsToYuan(order.amount))}。`,
      dedupeKey: `recharge_succeeded:${orderNo}`,
      params: { orderNo, amount: unitsToYuan(order.amount) },
    });
    return true;
  });
}

/**
 * Acts on what the provider says about an order. A payment the provider confirms is credited
 * even if we had closed the order meanwhile (the money did arrive), but only at the order's
 * exact amount.
 */
async function applyTradeState(deps: PaymentDeps, order: RechargeOrderRow, state: TradeState) {
  if (state.status === 'PAID') {
    if (state.amount !== order.amount) {
      deps.log.error(
        { orderNo: order.orderNo, paid: state.amount, expected: order.amount },
        'paid amount differs',
      );
      return;
    }
    await settlePaid(deps, order.orderNo, { tradeNo: state.tradeNo, amount: order.amount }, [
      'PENDING',
      'CLOSED',
    ]);
  } else if (state.status === 'CLOSED') {
    await createPaymentsRepository(deps).finishUnpaid(
      order.orderNo,
      'CLOSED',
      '支付平台已关闭交易',
      deps.now(),
    );
  }
}

/** Asks the provider about a pending order, at most once per interval across all replicas. */
export async function refreshFromProvider(deps: PaymentDeps, order: RechargeOrderRow, now: Date) {
  const driver = driverFor(deps, order);
  if (!driver) return;
  if (!(await createPaymentsRepository(deps).claimQuery(order.orderNo, now, PROVIDER_QUERY_INTERVAL_MS)))
    return;
  try {
    await applyTradeState(deps, order, await driver.query(order.orderNo));
  } catch (err) {
    deps.log.warn({ err, orderNo: order.orderNo }, 'payment query failed; the order stays pending');
  }
}

/**
 * Closes an expired pending order: asks the provider first (paid in the last second counts),
 * closes the provider's trade, then PENDING → CLOSED with a conditional update. Replicas doing
 * this at once only repeat idempotent provider calls.
 */
export async function expireOrder(deps: PaymentDeps, order: RechargeOrderRow, now: Date): Promise<void> {
  const repo = createPaymentsRepository(deps);
  const driver = driverFor(deps, order);
  if (driver) {
    try {
      const state = await driver.query(order.orderNo);
      if (state.status === 'PAID' || state.status === 'CLOSED') {
        await applyTradeState(deps, order, state);
        if (state.status === 'PAID') return;
      } else {
        await driver.close(order.orderNo);
      }
    } catch (err) {
      // The provider's own timeout closes its trade too; a late genuine payment is still credited.
      deps.log.warn({ err, orderNo: order.orderNo }, 'could not close the trade at the provider');
    }
  }
  await repo.finishUnpaid(order.orderNo, 'CLOSED', '订单超时未支付', now);
}

/** `GET /api/pay/status`: the owner's order only; a pending one is checked, and closed when expired. */
export async function paymentStatus(
  deps: PaymentDeps,
  user: AuthUser,
  orderNo: string,
): Promise<PaymentStatus> {
  const repo = createPaymentsRepository(deps);
  const order = await repo.ownedByOrderNo(user.tenantId, user.id, orderNo);
  if (!order) throw paymentErrors.orderNotFound();
  if (order.status !== 'PENDING') return toPaymentStatus(order.status);
  const now = deps.now();
  if (isExpired(order, now)) await expireOrder(deps, order, now);
  else await refreshFromProvider(deps, order, now);
  return toPaymentStatus((await repo.byOrderNo(orderNo))?.status ?? order.status);
}

/**
 * An asynchronous notification (Alipay's notify_url). The driver verifies signature, app and
 * seller; here the order must exist and be the provider's, and a payment must match the
 * amount. Answers `success` only once the credit is committed (or was already).
 */
export async function handleNotification(deps: PaymentDeps, params: Record<string, string>) {
  const check = deps.payments.verifyNotification?.(params);
  if (!check?.ok) {
    deps.log.warn({ reason: check?.reason, orderNo: params.out_trade_no }, 'payment notification refused');
    return 'fail' as const;
  }
  const n = check.notification;
  const repo = createPaymentsRepository(deps);
  const order = await repo.byOrderNo(n.orderNo);
  if (!order || order.provider !== deps.payments.kind) {
    deps.log.warn({ orderNo: n.orderNo }, 'payment notification for an unknown order');
    return 'fail' as const;
  }
  if (n.state === 'WAITING') return 'success' as const;
  if (n.state === 'CLOSED') {
    await repo.finishUnpaid(order.orderNo, 'CLOSED', '支付平台已关闭交易', deps.now());
    return 'success' as const;
  }
  if (n.amount !== order.amount) {
    deps.log.error(
      { orderNo: order.orderNo, paid: n.amount, expected: order.amount },
      'notified amount differs',
    );
    return 'fail' as const;
  }
  await settlePaid(deps, order.orderNo, { tradeNo: n.tradeNo, amount: order.amount }, ['PENDING', 'CLOSED']);
  return (await repo.byOrderNo(order.orderNo))?.status === 'SUCCESS'
    ? ('success' as const)
    : ('fail' as const);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toRechargeOrder(o: RechargeOrderRow): RechargeOrder {
  return {
    id: o.id,
    orderNo: o.orderNo,
    amount: unitsToYuan(o.amount),
    status: o.status,
    paymentType: o.paymentType,
    provider: o.provider,
    subject: o.subject,
    body: o.body,
    providerTradeNo: o.providerTradeNo,
    createdAt: o.createdAt.toISOString(),
    expiresAt: o.expiresAt.toISOString(),
    paidAt: iso(o.paidAt),
    closedAt: iso(o.closedAt),
  };
}

export async function listRechargeOrders(
  deps: Pick<PaymentDeps, 'db'>,
  user: AuthUser,
  q: RechargeOrderQuery,
): Promise<Page<RechargeOrder>> {
  const { from, toExclusive } = dateBounds(q.startDate, q.endDate);
  const { list, total } = await createPaymentsRepository(deps).page(
    { tenantId: user.tenantId, userId: user.id, status: q.status, from, toExclusive },
    q.page,
    q.size,
  );
  return { list: list.map(toRechargeOrder), total, page: q.page, size: q.size };
}

/** One of the user's orders by id, or by order number. */
export async function getRechargeOrder(
  deps: Pick<PaymentDeps, 'db'>,
  user: AuthUser,
  idOrNo: string,
): Promise<RechargeOrder> {
  const repo = createPaymentsRepository(deps);
  const order = /^\d{1,15}$/.test(idOrNo)
    ? await repo.ownedById(user.tenantId, user.id, Number(idOrNo))
    : await repo.ownedByOrderNo(user.tenantId, user.id, idOrNo);
  if (!order) throw paymentErrors.orderNotFound();
  return toRechargeOrder(order);
}
