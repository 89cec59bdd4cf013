/**
 * The texts of 通知设置 (channels, threshold, webhooks), apart from zh-CN.ts so they load with
 * that lazy page and never with the entry (which every visitor downloads). The event and channel
 * names, the bell's and the message centre's texts are in zh-CN.messages.ts (`tmsg`).
 */
export const tn = {
  settings: {
    settingsSubtitle: '选择每类通知的接收方式；站内信始终开启',
    tabChannels: '接收方式',
    tabWebhooks: 'Webhook',
    event: '通知类型',
    siteAlways: '站内信始终开启',
    threshold: '余额预警阈值（元）',
    thresholdHint: '可用余额低于该金额时发送余额不足通知',
    thresholdRequired: '请输入余额预警阈值',
    save: '保存设置',
    saved: '通知设置已保存',
    saveFailed: '保存通知设置失败',
    loadFailed: '通知设置加载失败',
  },
  webhooks: {
    hint: (max: number, delays: string) =>
      `事件发生时，平台向您的地址发送 POST 请求（JSON）。失败会按退避重试（${delays}）。最多 ${max} 个。`,
    /** A retry delay of WEBHOOK_RETRY_DELAYS_S, in words. */
    delay: (seconds: number) => (seconds >= 3600 ? `${seconds / 3600} 小时` : `${seconds / 60} 分钟`),
    add: '添加 Webhook',
    url: '回调地址',
    urlPlaceholder: 'https://example.com/gpu-webhook',
    urlRequired: '请输入回调地址',
    urlInvalid: '请输入以 http:// 或 https:// 开头的有效地址',
    added: 'Webhook 已添加',
    addFailed: '添加 Webhook 失败',
    secretTitle: '请保存签名密钥',
    secretHint: '密钥只显示这一次，关闭后无法再次查看。请用它校验请求签名。',
    copy: '复制密钥',
    copied: '已复制',
    copyFailed: '复制失败，请手动选择复制',
    secretSaved: '我已保存',
    secret: '密钥',
    enabled: '已启用',
    disabled: '已停用',
    createdAt: '添加时间',
    test: '测试',
    testResult: (ok: boolean, code: number | null) =>
      `${ok ? '测试成功' : '测试失败'}${code === null ? '' : `（HTTP ${code}）`}`,
    testFailed: '测试请求发送失败',
    delete: '删除',
    deleteConfirm: '删除这个 Webhook？',
    deleteHint: '删除后不再向该地址发送通知，投递记录一并删除。',
    deleted: 'Webhook 已删除',
    deleteFailed: '删除 Webhook 失败',
    cancel: '取消',
    empty: '还没有 Webhook',
    loadFailed: 'Webhook 加载失败',
    deliveries: '投递记录',
    noDeliveries: '暂无投递记录',
    deliveryStatus: { pending: '待重试', delivered: '已送达', failed: '失败' },
    event: '事件',
    status: '状态',
    httpCode: 'HTTP 状态码',
    excerpt: '响应摘要',
    attempts: '尝试次数',
    lastAttempt: '最近尝试',
    nextAttempt: '下次重试',
    verifyTitle: '如何校验签名',
    verifyText: (header: string) =>
      `每个请求带有 ${header} 请求头，格式为 t=<Unix 秒>,v1=<签名>。签名是用您的密钥对“<t>.<原始请求体>”做 HMAC-SHA256 的十六进制结果。请用原始请求体（不要先解析再序列化）计算，比较时使用常量时间比较，并拒绝时间戳与当前时间相差超过 5 分钟的请求。`,
  },
};
