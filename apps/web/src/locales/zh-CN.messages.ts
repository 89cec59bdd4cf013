import type { NotificationChannel, NotificationEvent } from '@gpu/shared/notifications';

/**
 * The texts of the bell and the message centre (event and channel names included), apart from
 * zh-CN.ts so they load with those lazy chunks and never with the entry.
 */
export const tmsg = {
  /** Every event's name: a Record over NOTIFICATION_EVENTS, so a new event without one fails tsc. */
  events: {
    low_balance: '余额不足',
    arrears_stop: '欠费停机',
    package_expiring: '包期即将到期',
    package_expired: '包期已到期',
    release_scheduled: '实例即将释放',
    idle_shutdown_warning: '空闲关机预警',
    idle_shutdown: '空闲自动关机',
    scheduled_shutdown_warning: '定时关机预警',
    scheduled_shutdown: '定时关机',
    spending_cap_warning: '消费上限预警',
    spending_cap_shutdown: '消费上限关机',
    create_failed_refunded: '创建失败已退款',
    recharge_succeeded: '充值成功',
    voucher_received: '收到代金券',
    voucher_expiring: '代金券即将过期',
    admin_action: '管理员操作',
  } satisfies Record<NotificationEvent, string>,
  channels: { site: '站内信', sms: '短信', webhook: 'Webhook' } satisfies Record<NotificationChannel, string>,
  bell: '消息通知',
  bellUnread: (n: number) => `消息通知，${n} 条未读`,
  latest: '最新消息',
  markAllRead: '全部已读',
  markRead: '标为已读',
  viewAll: '查看全部消息',
  unread: '未读',
  empty: '暂无消息',
  emptyUnread: '没有未读消息',
  loadFailed: '消息加载失败',
  retry: '重试',
  markFailed: '操作失败，请稍后重试',
  allRead: '已全部标为已读',
  centreTitle: '消息中心',
  centreSubtitle: '余额、实例、关机与代金券等通知都在这里',
  filterAll: '全部消息',
  filterUnread: '仅看未读',
  total: (n: number) => `共 ${n} 条`,
  /** The instance page's banner of an administrator's action (unread admin_action messages). */
  acknowledge: '知道了',
  acknowledgeAll: '全部标记为已读',
};
