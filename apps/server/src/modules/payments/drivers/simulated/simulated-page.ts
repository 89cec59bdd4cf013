import { formatYuan, unitsToYuan } from '@gpu/shared';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export interface SimulatedPageOrder {
  orderNo: string;
  amount: number;
  subject: string;
  status: string;
}

/** The small zh-CN page the simulated QR code opens: the order and one button that pays it. */
export function renderSimulatedPage(order: SimulatedPageOrder | null, note?: string): string {
  let content: string;
  if (!order) {
    content = '<h1>订单不存在</h1><p class="muted">请返回充值页面重新下单。</p>';
  } else {
    const rows = `<dl>
      <dt>订单号</dt><dd>${escapeHtml(order.orderNo)}</dd>
      <dt>商品</dt><dd>${escapeHtml(order.subject)}</dd>
      <dt>金额</dt><dd class="amount">¥${formatYuan(unitsToYuan(order.amount))}</dd>
    </dl>`;
    if (order.status === 'PENDING') {
      content = `<h1>模拟支付</h1>${rows}
      <form method="post"><button type="submit">确认支付</button></form>
      <p class="muted">这是模拟支付页面，点击即视为支付成功，不会产生真实扣款。</p>`;
    } else if (order.status === 'SUCCESS') {
      content = `<h1 class="ok">支付成功</h1>${rows}<p class="muted">余额已到账，请返回充值页面。</p>`;
    } else {
      content = `<h1 class="bad">订单已关闭</h1>${rows}<p class="muted">订单已超时或已取消，请返回充值页面重新下单。</p>`;
    }
  }
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>模拟支付</title>
<style>
  body { font-family: -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif; background: #f5f6fa; margin: 0; }
  main { max-width: 420px; margin: 40px auto; background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 20px; margin: 0 0 16px; }
  .ok { color: #16a34a; } .bad { color: #dc2626; }
  dl { display: grid; grid-template-columns: 80px 1fr; gap: 8px; margin: 0 0 20px; }
  dt { color: #6b7280; } dd { margin: 0; word-break: break-all; }
  .amount { font-size: 22px; font-weight: 600; color: #200beb; }
  button { width: 100%; padding: 12px; font-size: 16px; color: #fff; background: #1677ff; border: 0; border-radius: 8px; cursor: pointer; }
  .muted { color: #6b7280; font-size: 13px; }
  .note { color: #dc2626; }
</style>
</head>
<body><main>${note ? `<p class="note">${escapeHtml(note)}</p>` : ''}${content}</main></body>
</html>`;
}
