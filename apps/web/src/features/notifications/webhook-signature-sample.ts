import { WEBHOOK_SIGNATURE_HEADER } from '@gpu/shared/notifications';

/**
 * The Node.js sample of the webhook page's "how to verify" help. Code, not prose, so it lives
 * here rather than in the locale; webhook-signature-sample.test.ts runs it against a signature
 * made by the documented rule, so the sample cannot drift from what the server sends.
 */
export const SIGNATURE_SAMPLE = `const crypto = require('node:crypto');

// rawBody：收到的原始请求体（Buffer 或字符串），不要先 JSON.parse
function verifyGpuWebhook(rawBody, header, secret) {
  const parts = Object.fromEntries(String(header).split(',').map((kv) => kv.split('=')));
  const t = Number(parts.t);
  // 拒绝超过 5 分钟的请求（防重放）
  if (!parts.v1 || !Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest('hex');
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(parts.v1, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

// Express 示例
app.post('/gpu-webhook', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verifyGpuWebhook(req.body, req.get('${WEBHOOK_SIGNATURE_HEADER}'), process.env.GPU_WEBHOOK_SECRET)) {
    return res.sendStatus(401);
  }
  const event = JSON.parse(req.body);
  // ……处理 event
  res.sendStatus(200);
});
`;
