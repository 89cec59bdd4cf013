import type { Instance, User } from '@gpu/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  siteUrl,
} from './helpers';
import { openContext, shot } from './screen-helpers';

// A walk of every screen at both sizes and on both tenants (issue "What customers see", consistency): nothing sticks
// out sideways, no page is a pixel or two taller than its content needs, and no id, number,
// address or amount breaks across lines mid-token.

const PUBLIC = ['/', '/market', '/cloud', '/contact', '/login', '/register', '/forgot-password'];
const CUSTOMER = [
  '/recharge',
  '/blockchain',
  '/user',
  '/console/homepage',
  '/console/instance',
  '/console/orders',
  '/console/bills',
  '/console/recharge-orders',
  '/console/vouchers',
  '/console/account-security',
];
const ADMIN = [
  '/admin/login',
  '/admin/dashboard',
  '/admin/tenants',
  '/admin/tenant-hosts',
  '/admin/discount-config',
  '/admin/voucher-config',
  '/admin/voucher-distribution',
  '/admin/host-management',
  '/admin/tenant-host-pricing',
  '/admin/balance-monitoring',
  '/admin/user-management',
  '/admin/instance-management',
  '/admin/audit-logs',
  '/admin/enquiries',
  '/admin/admins',
  '/admin/security',
];

interface Finding {
  kind: 'sideways' | 'extra-height' | 'broken-token' | 'pattern';
  detail: string;
}

/** What the walk finds wrong on the page now; console and back-office pages share one pattern. */
function audit(page: Page, consoleOrAdmin: boolean): Promise<Finding[]> {
  return page.evaluate((patterned) => {
    const found: { kind: Finding['kind']; detail: string }[] = [];
    if (patterned) {
      const headers = document.querySelectorAll('[data-testid="page-header"]').length;
      if (headers !== 1) found.push({ kind: 'pattern', detail: `${headers} page headers` });
      if (document.querySelector('.ant-statistic'))
        found.push({ kind: 'pattern', detail: 'a stat outside StatCard' });
    }
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) {
      found.push({ kind: 'sideways', detail: `${root.scrollWidth} > ${window.innerWidth}` });
    }
    const extra = root.scrollHeight - window.innerHeight;
    if (extra > 0 && extra <= 3) found.push({ kind: 'extra-height', detail: `${extra}px` });
    // Ids, numbers, amounts, addresses, hosts: a run of latin letters, digits and their punctuation.
    const token = /[¥A-Za-z0-9][A-Za-z0-9_.,@:/¥-]{5,}/g;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('pre, code, textarea, script, style, [aria-hidden="true"]')) continue;
      if (!el.checkVisibility()) continue;
      const text = node.textContent ?? '';
      for (const m of text.matchAll(token)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        if (tops.size > 1) {
          const where = el.getAttribute('data-testid') ?? el.className.toString().slice(0, 60);
          found.push({ kind: 'broken-token', detail: `"${m[0]}" in <${el.tagName.toLowerCase()} ${where}>` });
        }
      }
    }
    return found;
  }, consoleOrAdmin);
}

let browser: Browser;
let session: { accessToken: string; user: User };
/** The second tenant's customer: a new account, so its screens are walked empty. */
let other: { accessToken: string; user: User };
const OTHER_HOST = '127.0.0.1';
let walked: Instance | undefined;
let admin: Awaited<ReturnType<typeof adminLogin>>;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminLogin();
  session = await registerUser();
  other = await registerUser(OTHER_HOST);
  await fundUser(session.accessToken, 1000);
  // An instance, an order and bill lines, so the console's tables have rows to lay out.
  // On a host no other file counts on; given back after the walk.
  walked = await rentInstance(session.accessToken, { name: 'audit-walk', host: 'ah-a-4090-01' });
});
afterAll(async () => {
  if (walked)
    await api(`/gpu/instance/release?instance_uuid=${walked.id}`, { token: session.accessToken, body: {} });
  await browser?.close();
});

/** Opens each path, waits for its data, and lists what the audit finds there. */
async function walk(
  viewport: { width: number; height: number },
  paths: string[],
  signedIn: Parameters<typeof openContext>[2],
  label: string,
  host = 'localhost',
) {
  const context = await openContext(browser, viewport, signedIn);
  const findings: string[] = [];
  for (const path of paths) {
    const page = await context.newPage();
    await page.goto(siteUrl(host, path));
    await page.waitForLoadState('networkidle');
    await page
      .locator('.ant-spin-spinning, .ant-skeleton-active')
      .first()
      .waitFor({ state: 'detached', timeout: 8_000 })
      .catch(() => {});
    const patterned = /^\/(console|admin)\/(?!login)/.test(path);
    if (patterned)
      await page
        .getByTestId('page-header')
        .first()
        .waitFor({ timeout: 8_000 })
        .catch(() => {});
    await page.waitForTimeout(300);
    for (const f of await audit(page, patterned)) findings.push(`${host}${path} ${f.kind}: ${f.detail}`);
    await shot(page, `walk-${host}-${label}${path.replaceAll('/', '-') || '-home'}`);
    await page.close();
  }
  await context.close();
  return findings;
}

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
] as const) {
  describe(`every screen at ${label} px`, () => {
    it('public screens', async () => {
      expect(await walk(viewport, PUBLIC, {}, label)).toEqual([]);
    });
    it('customer screens', async () => {
      const signedIn = { token: session.accessToken, user: session.user };
      expect(await walk(viewport, CUSTOMER, signedIn, label)).toEqual([]);
    });
    it('the second tenant: public screens and an empty customer account', async () => {
      const signedIn = { token: other.accessToken, user: other.user };
      expect(await walk(viewport, PUBLIC, {}, label, OTHER_HOST)).toEqual([]);
      expect(await walk(viewport, CUSTOMER, signedIn, label, OTHER_HOST)).toEqual([]);
    });
    it('back-office screens', async () => {
      const signedIn = { adminToken: admin.token, admin: admin.admin };
      expect(await walk(viewport, ADMIN, signedIn, label)).toEqual([]);
    });
  });
}
