import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_RATE_PER_MINUTE,
  ACCESS_TOKEN_SCOPE_LABELS,
  type RouteAccess,
} from '@gpu/shared';
import { IDEMPOTENCY_HEADER } from '../modules/idempotency/idempotency.models.ts';
import type { DocError } from './api-docs-errors.ts';

/** The line of an operation's description that says what a personal access token needs. */
export function accessLine(access: RouteAccess): string {
  if (access === 'session') return '仅限控制台登录：个人访问令牌不能调用此接口。';
  if (access === 'read') return `需要令牌权限：read（${ACCESS_TOKEN_SCOPE_LABELS.read}，任何令牌均可）。`;
  return `需要令牌权限：${access}（${ACCESS_TOKEN_SCOPE_LABELS[access]}）。`;
}

/** Chinese descriptions of the customer document's tags, in the order they are shown. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: '登录、注册、验证码、当前用户与账号安全。登录接口返回的 accessToken 也可作为 Bearer 令牌使用，脚本建议使用个人访问令牌。',
  'access-tokens': '个人访问令牌（账号安全 → API令牌）：创建、列出、吊销。仅限控制台登录。',
  market: 'GPU 市场与镜像目录：可租机器、价格（元/小时）、空闲 GPU 数、可用镜像。',
  pricing: '包日/包周/包月价格、订单计价与续费。',
  instances:
    '实例的创建、查询、开关机、释放与设置。创建、开机、关机、释放都是异步的：应答是进行中的状态，用 GET /api/gpu/instance/{uuid}?waitFor=RUNNING&timeout=60 等待结果。',
  images: '把实例的系统盘保存为私有镜像，以及管理我的镜像。',
  'ssh-keys': 'SSH 公钥：之后创建或开机的实例自动写入 authorized_keys。',
  billing: '账户余额、费用明细、消费概览与导出。金额单位为元。',
  payments: '充值订单与支付状态。',
  blockchain: '链上（USDT）充值订单。',
  vouchers: '我的代金券与订单可用的代金券。',
  discounts: '进行中的折扣活动与折扣价计算。',
  guards: '自动关机（定时、空闲）与消费上限。',
  monitoring: '实例监控：GPU、CPU、内存、磁盘。',
  notifications: '消息中心、通知设置与 Webhook 回调（见 docs/webhooks.md）。',
  notices: '管理员对实例操作的通知。',
  vastai: '海外 GPU（vast.ai）实例。',
  'gpu-docker': '本地 Docker 主机上的实例（兼容旧接口）。',
  contact: '裸金属咨询。',
  tenant: '当前站点（租户）的配置。',
  files: '已上传的图片。',
  system: '健康检查。',
};

const catalogueTable = (errors: DocError[]) =>
  [
    '| HTTP | errorCode | message（示例） |',
    '| --- | --- | --- |',
    ...errors.map((e) => `| ${e.status} | \`${e.errorCode}\` | ${e.message.replaceAll('|', '\\|')} |`),
  ].join('\n');

/** The document's own introduction: how to sign in, the envelope, errors, retries and waiting. */
export function infoDescription(catalogue: DocError[]): string {
  return `GPU 算力租赁平台的客户 API：控制台能做的事，脚本都能做。入门示例见仓库的 docs/api.md，命令行工具见 apps/cli（\`gpu\`）。

## 认证

在控制台 **账号安全 → API令牌** 创建个人访问令牌（以 \`${ACCESS_TOKEN_PREFIX}\` 开头，只显示一次），每个请求带上：

\`\`\`
Authorization: Bearer ${ACCESS_TOKEN_PREFIX}…
\`\`\`

令牌权限：\`read\`（只读）、\`instances\`（实例管理：创建、开关机、释放、镜像、SSH 公钥、自动关机、Webhook）、\`billing\`（费用：充值、代金券、消费上限）。任何令牌都可以读；每个接口的说明和 \`x-access\` 字段写明所需权限。修改密码、手机号、管理令牌等接口 **仅限控制台登录**（\`x-access: session\`），令牌调用会得到 403 \`auth.token_not_allowed\`；权限不够得到 403 \`auth.token_scope\`；令牌过期或已吊销得到 401 \`common.unauthorized\`。令牌永远不能调用管理后台接口。

## 应答格式

每个应答都是同一个信封，HTTP 状态码与 \`code\` 一致：

\`\`\`json
{ "success": true, "code": "200", "message": "成功", "data": { … } }
{ "success": false, "code": "404", "message": "实例不存在", "data": null, "errorCode": "instances.not_found" }
\`\`\`

\`message\` 是给人看的中文说明；脚本请按 \`errorCode\`（稳定的机器名）判断。参数错误是 400 \`common.validation\`，\`message\` 写明字段，如 \`参数 gpuCount 无效：GPU数量至少为1\`。金额单位为元（数字，如 \`1.88\`），时间为带时区的 ISO 8601 字符串，列表为 \`{ list, total, page, size }\`。

## 幂等

所有修改类请求（POST/PUT/PATCH/DELETE）都接受请求头 \`${IDEMPOTENCY_HEADER}\`（8 到 128 位字母、数字、下划线或短横线）。同一个 key 重试只执行一次，并返回第一次的应答；网络超时后请用同一个 key 重试，新的操作请用新的 key。同一个 key 用于内容不同的请求得到 422 \`idempotency.body_mismatch\`，第一次还在处理中得到 409 \`idempotency.in_flight\`。

## 频率限制

每个令牌每分钟最多 ${ACCESS_TOKEN_RATE_PER_MINUTE} 次请求（所有接口、所有服务器合计），超出得到 429 \`common.rate_limited\`，应答头 \`Retry-After\` 和 \`message\` 写明几秒后再试。

## 等待实例状态（长轮询）

创建、开机、关机、释放立即返回进行中的状态（CREATING、STARTING、STOPPING、RELEASING）。等待结果不必反复查询：

\`\`\`
GET /api/gpu/instance/{uuid}?waitFor=RUNNING&timeout=60
\`\`\`

达到该状态、实例变为 FAILED 或 RELEASED、或等待 \`timeout\` 秒（1–60）后返回，应答总是实例本身；未达到时再发一次即可。

## 通知与 Webhook

余额不足、实例停止、自动关机等事件可在 \`GET /api/user/notifications\` 读取，也可以推送到你的 Webhook（\`POST /api/user/webhooks\`，签名与重试规则见 docs/webhooks.md），脚本无需轮询即可得知“实例已停止”。

## 错误码

下表列出客户 API 的全部错误码；每个接口的 \`x-errors\` 和错误应答示例列出它可能返回的错误。“…”处是实际值。

${catalogueTable(catalogue)}
`;
}
