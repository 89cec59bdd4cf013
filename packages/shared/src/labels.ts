/**
 * The enumerations users see and what each value is called, on the screens, in server messages
 * and in the export alike (one map each; plain data, no zod, so any screen may import it).
 */

export const INSTANCE_STATUSES = [
  'CREATING',
  'RUNNING',
  'STOPPING',
  'STOPPED',
  'STARTING',
  'RELEASING',
  'RELEASED',
  'RESETTING',
  'SAVING_IMAGE',
  'FAILED',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** Instance states as users read them (SPEC.md §2 console). */
export const INSTANCE_STATUS_NAMES = {
  CREATING: '创建中',
  RUNNING: '运行中',
  STOPPING: '关机中',
  STOPPED: '已关机',
  STARTING: '开机中',
  RELEASING: '释放中',
  RELEASED: '已释放',
  RESETTING: '重置中',
  SAVING_IMAGE: '保存镜像中',
  FAILED: '创建失败',
} as const satisfies Record<InstanceStatus, string>;

export const BILL_KINDS = ['create', 'metering', 'renewal', 'refund', 'nogpu'] as const;
export type BillKind = (typeof BILL_KINDS)[number];
/** An order is a record that buys, extends or refunds an instance; metering is not an order. */
export const ORDER_BILL_KINDS = ['create', 'renewal', 'refund'] as const satisfies readonly BillKind[];

/** What each bill kind is called (issue 10: create is 新购 everywhere). */
export const BILL_KIND_NAMES = {
  create: '新购',
  metering: '按量扣费',
  renewal: '续费',
  refund: '退款',
  nogpu: '无卡模式',
} as const satisfies Record<BillKind, string>;

/** Billing types as the console lists and the bill export name them. */
export const BILLING_TYPE_NAMES = {
  hourly: '按量计费',
  daily: '包日',
  weekly: '包周',
  monthly: '包月',
} as const;

/** Billing types on tabs and price cards, where space is short. */
export const BILLING_TYPE_SHORT_NAMES = { ...BILLING_TYPE_NAMES, hourly: '按量' } as const;

/** Where an order is in its life; `FAIL` and `CLOSED` both answer FAIL to the status poll. */
export const RECHARGE_ORDER_STATUSES = ['PENDING', 'SUCCESS', 'FAIL', 'CLOSED'] as const;
export type RechargeOrderStatus = (typeof RECHARGE_ORDER_STATUSES)[number];

/** What each recharge order status is called. */
export const RECHARGE_ORDER_STATUS_NAMES = {
  PENDING: '待支付',
  SUCCESS: '已支付',
  FAIL: '支付失败',
  CLOSED: '已关闭',
} as const satisfies Record<RechargeOrderStatus, string>;
