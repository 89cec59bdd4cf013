import { formatYuan, microToChainAmount, unitsToYuan } from '@gpu/shared';
import type { BlockchainOrderRow } from '../../blockchain.repository.ts';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The small zh-CN page that plays the chain for one order: confirm or fail its transaction. */
export function renderSimulatedChainPage(order: BlockchainOrderRow | null): string {
  let content: string;
  if (!order) {
    content = '<h1>订单不存在</h1><p class="muted">请返回区块链订单页面。</p>';
  } else {
    const rows = `<dl>
      <dt>订单号</dt><dd>${escapeHtml(order.orderNo)}</dd>
      <dt>网络</dt><dd>${escapeHtml(order.chain)}</dd>
      <dt>金额</dt><dd>${escapeHtml(microToChainAmount(order.amountMicro))} ${escapeHtml(order.currency)}</dd>
      <dt>到账</dt><dd class="amount">¥${formatYuan(unitsToYuan(order.creditAmount))}</dd>
      <dt>交易哈希</dt><dd>${escapeHtml(order.txHash)}</dd>
    </dl>`;
    if (order.status === 'PENDING') {
      content = `<h1>模拟区块链确认</h1>${rows}
      <form method="post"><input type="hidden" name="result" value="CONFIRMED"><button type="submit">确认交易</button></form>
      <form method="post"><input type="hidden" name="result" value="FAILED"><button class="secondary" type="submit">交易失败</button></form>
      <p class="muted">这是模拟链上确认页面，确认后余额按订单金额到账，不涉及真实转账。</p>`;
    } else if (order.status === 'CONFIRMED') {
      content = `<h1 class="ok">交易已确认</h1>${rows}<p class="muted">余额已到账，请返回区块链订单页面。</p>`;
    } else {
      content = `<h1 class="bad">交易失败</h1>${rows}<p class="muted">${escapeHtml(order.failReason ?? '')}</p>`;
    }
  }
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>模拟区块链确认</title>
<style>
  body { font-family: -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif; background: #f5f6fa; margin: 0; }
  main { max-width: 460px; margin: 40px auto; background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 20px; margin: 0 0 16px; }
  .ok { color: #16a34a; } .bad { color: #dc2626; }
  dl { display: grid; grid-template-columns: 80px 1fr; gap: 8px; margin: 0 0 20px; }
  dt { color: #6b7280; } dd { margin: 0; word-break: break-all; }
  .amount { font-size: 20px; font-weight: 600; color: #200beb; }
  form { margin: 0 0 10px; }
  button { width: 100%; padding: 12px; font-size: 16px; color: #fff; background: #1677ff; border: 0; border-radius: 8px; cursor: pointer; }
  button.secondary { background: #fff; color: #dc2626; border: 1px solid #dc2626; }
  .muted { color: #6b7280; font-size: 13px; }
</style>
</head>
<body><main>${content}</main></body>
</html>`;
}
