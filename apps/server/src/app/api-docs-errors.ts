import type { RouteAccess } from '@gpu/shared';
import { accessTokenErrors, authErrors as signInErrors } from '../modules/auth/index.ts';
import { billsErrors } from '../modules/billing/index.ts';
import { blockchainErrors } from '../modules/blockchain/index.ts';
import { contactErrors } from '../modules/contact/index.ts';
import { guardsErrors } from '../modules/guards/index.ts';
import { driverErrorToAppError, HostDriverError } from '../modules/hosts/index.ts';
import { idempotencyErrors } from '../modules/idempotency/index.ts';
import { imageErrors, instanceErrors } from '../modules/instances/index.ts';
import { billingErrors } from '../modules/ledger/index.ts';
import { noticesErrors } from '../modules/notices/index.ts';
import { operationsErrors } from '../modules/operations/index.ts';
import { paymentErrors } from '../modules/payments/index.ts';
import { pricingErrors } from '../modules/pricing/index.ts';
import { sshKeyErrors } from '../modules/ssh-keys/index.ts';
import { tenantAdminErrors } from '../modules/tenant-admin/index.ts';
import { tenantErrors } from '../modules/tenants/index.ts';
import { vastaiErrors } from '../modules/vastai/index.ts';
import { voucherErrors } from '../modules/vouchers/index.ts';
import { type AppError, commonErrors } from '../platform/errors.ts';

/** One error an operation may answer, as the document lists it (`x-errors`). */
export interface DocError {
  status: number;
  errorCode: string;
  message: string;
}

type Factory = (...args: never[]) => AppError;
type Factories = Record<string, Factory>;

/**
 * Stands for every argument of an error factory: it reads as "…" in a message, and survives what
 * the factories do with their arguments (`ports.slice(0, 5).join('、')`, `ids.length > 5`).
 */
const PLACEHOLDER: unknown = new Proxy(() => PLACEHOLDER, {
  get: (_t, key) =>
    key === Symbol.toPrimitive ? (hint: string) => (hint === 'number' ? Number.NaN : '…') : PLACEHOLDER,
  apply: () => PLACEHOLDER,
});

/** A factory that takes its whole message as an argument leaves nothing but the placeholder. */
const described = (e: AppError): DocError => ({
  status: e.status,
  errorCode: e.code,
  message: e.message === '…' ? '（原因因情况而异，见应答的 message）' : e.message,
});
/** Every factory of an errors object (or those named), called with placeholders. */
function errorsOf<F extends Factories>(factories: F, ...names: (keyof F & string)[]): DocError[] {
  const picked = names.length > 0 ? names : Object.keys(factories);
  return picked.map((name) =>
    described((factories[name] as (...a: unknown[]) => AppError)(PLACEHOLDER, PLACEHOLDER, PLACEHOLDER)),
  );
}

/** What the validation step answers; an example message in the handler's own format. */
export const VALIDATION_ERROR: DocError = {
  status: 400,
  errorCode: 'common.validation',
  message: '参数 gpuCount 无效：GPU数量至少为1',
};

/**
 * What a route needing a signed-in user may answer, whatever it does: 401 and 429 always; 403
 * when a token lacks the route's scope (every token reads) or the route is for sessions only.
 */
export function authErrors(access: RouteAccess): DocError[] {
  return [
    described(commonErrors.unauthorized('登录已失效，请重新登录')),
    described(accessTokenErrors.invalid()),
    ...(access === 'session'
      ? [described(accessTokenErrors.notAllowed())]
      : access === 'read'
        ? []
        : [described(accessTokenErrors.scope(access))]),
    { status: 429, errorCode: 'common.rate_limited', message: '请求过于频繁，请…秒后再试' },
  ];
}

/** What a mutating route's Idempotency-Key may answer. */
export const IDEMPOTENCY_ERRORS: DocError[] = errorsOf(idempotencyErrors);

const driverErrors = (['HOST_UNREACHABLE', 'DRIVER_FAILURE'] as const).map((kind) =>
  described(driverErrorToAppError(new HostDriverError(kind, 'GPU 主机操作失败'))),
);

/**
 * The errors of each tag's routes, beyond the common ones: one table, built from the modules'
 * own errors objects, so a new error of a module shows up here without a second copy of its
 * message. A route lists the errors of its tag (reads only those with status 400, 404 or 422).
 */
const TAG_ERRORS: Record<string, DocError[]> = {
  tenant: errorsOf(tenantErrors),
  auth: errorsOf(signInErrors).filter((e) => e.errorCode !== 'auth.bad_admin_credentials'),
  'access-tokens': errorsOf(accessTokenErrors, 'limit', 'notFound'),
  vouchers: errorsOf(voucherErrors, 'notFound', 'refused'),
  discounts: [],
  market: [],
  pricing: [
    ...errorsOf(pricingErrors),
    ...errorsOf(instanceErrors, 'notFound', 'notPackage', 'renewalTooLong'),
  ],
  contact: errorsOf(contactErrors, 'tooMany', 'productUnknown'),
  notices: errorsOf(operationsErrors, 'noticeNotFound'),
  notifications: errorsOf(noticesErrors),
  payments: errorsOf(paymentErrors),
  blockchain: errorsOf(blockchainErrors),
  'ssh-keys': errorsOf(sshKeyErrors),
  instances: [
    ...errorsOf(instanceErrors),
    ...errorsOf(pricingErrors),
    ...errorsOf(voucherErrors, 'refused'),
    ...errorsOf(billingErrors, 'insufficientBalance'),
    ...driverErrors,
  ],
  images: [...errorsOf(imageErrors), ...errorsOf(instanceErrors, 'notFound', 'badState')],
  billing: [
    ...errorsOf(billsErrors),
    ...errorsOf(instanceErrors, 'notFound', 'badState'),
    ...errorsOf(billingErrors, 'insufficientBalance'),
  ],
  'gpu-docker': [...errorsOf(instanceErrors, 'notFound', 'badState'), ...driverErrors],
  monitoring: errorsOf(instanceErrors, 'notFound'),
  guards: [...errorsOf(instanceErrors, 'notFound'), ...errorsOf(guardsErrors)],
  vastai: errorsOf(vastaiErrors),
  files: errorsOf(tenantAdminErrors, 'fileNotFound'),
  system: [],
};

const READ_STATUSES = new Set([400, 404, 422]);

/** The errors of an operation of `tag`, beyond the common ones. */
export function tagErrors(tag: string | undefined, isRead: boolean): DocError[] {
  const all = TAG_ERRORS[tag ?? ''] ?? [];
  return isRead ? all.filter((e) => READ_STATUSES.has(e.status)) : all;
}

/** One entry per error code and message, ordered by status then code. */
export function uniqueErrors(errors: DocError[]): DocError[] {
  const seen = new Map<string, DocError>();
  for (const e of errors) seen.set(`${e.errorCode}\u0000${e.message}`, e);
  return [...seen.values()].sort((a, b) => a.status - b.status || a.errorCode.localeCompare(b.errorCode));
}

/** Every error code the customer API may answer (the document's catalogue). */
export function errorCatalogue(): DocError[] {
  return uniqueErrors([
    VALIDATION_ERROR,
    described(commonErrors.notFound('接口不存在')),
    { status: 413, errorCode: 'common.too_large', message: '请求内容过大' },
    { status: 500, errorCode: 'common.internal', message: '服务器内部错误，请稍后重试' },
    { status: 503, errorCode: 'common.unavailable', message: '服务暂时不可用，请稍后重试' },
    ...authErrors('instances'),
    ...authErrors('billing'),
    ...authErrors('session'),
    ...IDEMPOTENCY_ERRORS,
    ...Object.values(TAG_ERRORS).flat(),
  ]);
}
