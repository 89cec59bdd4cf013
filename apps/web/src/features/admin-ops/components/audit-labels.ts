import { ta } from '../../../locales/zh-CN.admin';

const a = ta.adminOps.audit;
// The locale's names are typed over AUDIT_TARGET_TYPES; reading the list there keeps zod (the
// shared audit schemas) out of the page's chunk.
const TYPES = new Set(Object.keys(a.targetTypes));
const SIGN_IN_ACTIONS = new Set(['admin.login', 'admin.login_failed', 'admin.logout']);

/** An audit action's Chinese name; a code the locale lacks (an old row) shows as written. */
export const actionName = (action: string) => a.actionNames[action] ?? action;

/** `instance:12` → 实例 #12, `gpu-sku:*` → 全部GPU 规格, `market` → 算力市场; an admin sign-in's username as 管理员账号 x. */
export function targetName(target: string | null, action?: string): string {
  if (!target) return '-';
  // Sign-ins name the username they were tried with; other admin.* rows target `admin:<id>`.
  if (action && SIGN_IN_ACTIONS.has(action)) return a.adminAccount(target);
  const at = target.indexOf(':');
  const type = at < 0 ? target : target.slice(0, at);
  if (!TYPES.has(type)) return target;
  const label = a.targetTypes[type] ?? type;
  if (at < 0) return label;
  const id = target.slice(at + 1);
  return id === '*' ? a.allOfType(label) : `${label} #${id}`;
}

/** A detail field's Chinese name; a key the locale lacks shows as written. */
export const fieldName = (key: string) => a.fields[key] ?? key;

/**
 * The target filter as typed: `实例 #12`, `实例12` or `实例` become `instance:12` / `instance:`
 * (the server filters by prefix); anything else (`instance:12`, a username) is sent as written.
 */
export function targetQuery(input: string): string {
  const text = input.trim();
  const byLength = Object.entries(a.targetTypes).sort(([, x], [, y]) => y.length - x.length);
  for (const [type, label] of byLength) {
    if (!text.startsWith(label)) continue;
    const id = text.slice(label.length).replace(/^\s*#?\s*/, '');
    if (id === '' || /^\d+$/.test(id)) return `${type}:${id}`;
  }
  return text;
}

/** A coded value of a detail field (`status: RUNNING`, `reason: at_limit`) in Chinese, else as written. */
export function valueName(key: string | undefined, value: unknown): string {
  if (typeof value === 'boolean') return value ? a.yes : a.no;
  const text = String(value);
  return (key ? a.values[key]?.[text] : undefined) ?? text;
}
