import path from 'node:path';
import type { Admin, Envelope, Instance, MarketList, TenantConfig, User } from '@gpu/shared';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { STORAGE_KEYS } from '../src/lib/session';
import { ADMIN, ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS } from './env';

export const DESKTOP = { width: 1440, height: 900 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/** The two demo tenants: the default one answers `localhost`, the second `127.0.0.1`. */
export const HOSTS = ['localhost', '127.0.0.1'] as const;

export const port = () => inject('port');
export const siteUrl = (host: string, path = '/') => `http://${host}:${port()}${path}`;

/** Headless Debian Chromium with a fresh temporary profile. */
/** Every browser a test file launched and has not closed: failure-report.ts looks at their pages. */
export const openBrowsers = new Set<Browser>();

/**
 * What went wrong on each page, newest last: script errors, console errors, failed requests and
 * error answers. The failure report prints it: a page that never shows what a test waits for
 * says why only here (a chunk that did not load, a call that timed out, a 401).
 */
export const pageTrouble = new WeakMap<Page, string[]>();

function watchPage(page: Page) {
  const lines: string[] = [];
  pageTrouble.set(page, lines);
  const add = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line.slice(0, 300)}`);
    if (lines.length > 20) lines.shift();
  };
  page.on('pageerror', (e) => add(`pageerror ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') add(`console.error ${m.text()}`);
  });
  page.on('requestfailed', (r) => add(`failed ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) add(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  openBrowsers.add(browser);
  browser.on('disconnected', () => openBrowsers.delete(browser));
  // Every context, also the one browser.newPage makes, watches its pages from their start.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('page', watchPage);
    return context;
  };
  return browser;
}

type CallInit = { host?: string; method?: string; body?: unknown; token?: string };

/** Calls the real API as the browser would for `host`, answering the envelope's data. */
export async function api<T>(path: string, init: CallInit = {}): Promise<T> {
  const res = await fetch(siteUrl('localhost', `/api${path}`), {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      'x-tenant-host': init.host ?? 'localhost',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (!envelope.success) throw new Error(`${path}: ${res.status} ${envelope.message}`);
  return envelope.data;
}

/** The real API as a logged-in user of the default tenant (GET, or POST with a body). */
export const userCall = <T>(token: string, path: string, body?: unknown) => api<T>(path, { token, body });

/**
 * The user's instance `id` once its provisioning job has taken it out of CREATING (create
 * answers as soon as the charge is committed, before the container exists).
 */
export async function settledInstance<T extends { id: number; status: string }>(
  token: string,
  id: number,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { list } = await userCall<{ list: T[] }>(token, '/gpu/instances?page=1&size=100');
    const inst = list.find((i) => i.id === id);
    if (inst && inst.status !== 'CREATING') return inst;
    if (Date.now() > deadline) throw new Error(`instance ${id} still ${inst?.status ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The demo's PyTorch image, on every demo host. */
export const DEMO_IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';

/**
 * Rents through the real API and waits until the create settles: on `host` (a demo host name) or
 * the first market item `pick` accepts with a free GPU. Packages rent one period.
 */
export async function rentInstance(
  token: string,
  opts: {
    name: string;
    host?: string;
    pick?: (item: MarketList['list'][number]) => boolean;
    billingType?: 'hourly' | 'daily' | 'weekly' | 'monthly';
    gpuAmount?: number;
  },
): Promise<Instance> {
  const market = await userCall<MarketList>(token, '/gpu/market?size=48');
  const item = market.list.find((i) =>
    opts.host ? i.hostName === opts.host : i.gpuIdleNum >= (opts.gpuAmount ?? 1) && (opts.pick?.(i) ?? true),
  );
  if (!item) throw new Error(`no market item for ${opts.host ?? 'the pick'}`);
  const billingType = opts.billingType ?? 'hourly';
  const accepted = await userCall<Instance>(token, '/gpu/instance/create', {
    machineId: item.id,
    image: DEMO_IMAGE,
    gpuAmount: opts.gpuAmount ?? 1,
    billingType,
    ...(billingType === 'hourly' ? {} : { duration: 1 }),
    instanceName: opts.name,
  });
  return settledInstance<Instance>(token, accepted.id);
}

/** Tops a user up through the simulated payment provider: the QR order, then "scan and pay". */
export async function fundUser(token: string, amount: number) {
  const { qrCode } = await userCall<{ qrCode: string }>(token, '/pay/createQrCode', {
    amount,
    type: 'alipay',
  });
  const res = await fetch(siteUrl('localhost', new URL(qrCode).pathname), { method: 'POST' });
  if (res.status !== 200) throw new Error(`paying ${qrCode}: ${res.status}`);
}

export const tenantConfig = (host: string) => api<TenantConfig>('/tenant/config', { host });

let phoneSeq = 0;
/** Registers a fresh user through the real SMS-code flow (the code is answered outside production). */
export async function registerUser(host = 'localhost') {
  const phone = `139${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSeq++ % 100).padStart(2, '0')}`;
  const { code } = await api<{ code?: string }>('/auth/send-verification-code', {
    host,
    body: { phone, codeType: 'REGISTER' },
  });
  const password = 'Passw0rd!';
  await api('/auth/register', {
    host,
    body: { phone, verificationCode: code, password, confirmPassword: password },
  });
  return api<{ accessToken: string; user: User }>('/auth/login', {
    host,
    body: { phone, password, rememberMe: true },
  });
}

export const adminLogin = () => api<{ token: string; admin: Admin }>('/admin/auth/login', { body: ADMIN });

/**
 * Puts sessions into localStorage before the app's first script runs, once per tab (a reload
 * after logout does not bring them back).
 */
export async function seedSession(
  context: BrowserContext,
  session: { token?: string; user?: unknown; adminToken?: string; admin?: unknown },
) {
  const entries: [string, string][] = [];
  if (session.token) entries.push([STORAGE_KEYS.token, session.token]);
  if (session.user) entries.push([STORAGE_KEYS.user, JSON.stringify(session.user)]);
  if (session.adminToken) entries.push([STORAGE_KEYS.adminToken, session.adminToken]);
  if (session.admin) entries.push([STORAGE_KEYS.adminUser, JSON.stringify(session.admin)]);
  await context.addInitScript((pairs) => {
    // about:blank and other opaque documents have no storage (reading it throws there).
    if (window.location.origin === 'null') return;
    if (window.sessionStorage.getItem('e2e.seeded')) return;
    window.sessionStorage.setItem('e2e.seeded', '1');
    for (const [key, value] of pairs) window.localStorage.setItem(key, value);
  }, entries);
}

/** '#0a8f6c' -> 'rgb(10, 143, 108)', as getComputedStyle reports colours. */
export function rgb(hex: string): string {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** Waits until the document title is `title` (it is set right after a navigation renders). */
export async function titled(page: Page, title: string) {
  await page.waitForFunction((t) => document.title === t, title, { timeout: 5_000 }).catch(() => undefined);
  if ((await page.title()) !== title)
    throw new Error(`title is "${await page.title()}", expected "${title}"`);
}

/** A full-page screenshot into the artifacts folder as `<name>.png`. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

/** A new tab of `context` at `viewport`, on `urlPath` of the default tenant. */
export async function openPage(
  context: BrowserContext,
  urlPath: string,
  viewport: { width: number; height: number } = DESKTOP,
) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(siteUrl('localhost', urlPath));
  return page;
}

/** Waits for an antd message toast saying `text`. */
export async function toast(page: Page, text: string, timeout = 10_000) {
  await page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor({ timeout });
}

/** The console's status tag of instance `id` shows `text`. */
export async function instanceStatusIs(page: Page, id: number, text: string, timeout = 15_000) {
  await page
    .getByTestId(`instance-row-${id}`)
    .getByTestId('instance-status')
    .filter({ hasText: text })
    .waitFor({ timeout });
}

/**
 * Until no antd dialog or popconfirm is in its zoom, and no drawer in its slide: a click during
 * one can land beside the moving button on a loaded runner (seen with confirm, release, voucher,
 * force-stop, price and token dialogs and a delete popconfirm), leaving it open.
 */
export const dialogsSettled = (page: Page) =>
  page.waitForFunction(
    () =>
      !document.querySelector(
        '.ant-modal[class*="zoom-"], .ant-popover[class*="zoom-big-"], .ant-drawer-content-wrapper[class*="panel-motion-"]',
      ),
  );

/** Clicks `button` in an open dialog, popconfirm or drawer once it stands still (dialogsSettled). */
export async function clickSettled(page: Page, button: Locator) {
  await dialogsSettled(page);
  await button.click();
}

/**
 * Until every antd dialog is closed, its motion over and focus back on what opened it: typing
 * right after a save once went to the "登记主机" button as the closing dialog handed focus back
 * to it, and Enter opened the form again.
 */
export const dialogsClosed = (page: Page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('.ant-modal-wrap')].every((w) => getComputedStyle(w).display === 'none'),
  );

/**
 * Opens the account panel by hovering the user menu, once every dialog has closed. On a loaded
 * runner a hover right after a dialog closed once opened nothing (the panel never showed); a
 * person would point again, and so does this, up to three times.
 */
export async function openAccountPanel(page: Page): Promise<Locator> {
  await dialogsClosed(page);
  const panel = page.getByTestId('account-panel');
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await page.getByTestId('user-menu').hover();
    try {
      await panel.waitFor({ state: 'visible', timeout: 10_000 });
      return panel;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/**
 * Clicks `button` in the open confirm dialog and waits for the dialog to close. The click waits
 * for the dialog's zoom-in to end: on a loaded runner a click during the animation once landed
 * beside the moving button and the dialog stayed open.
 */
export async function answerConfirm(page: Page, button: string) {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await clickSettled(page, dialog.getByRole('button', { name: button }));
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Opens the antd Select `select` and picks the option `label`, once the dropdown's slide-in has
 * ended (like answerConfirm: a click during the motion once left the select empty), then checks
 * the select shows it.
 */
export async function chooseOption(page: Page, select: Locator, label: string) {
  await select.click();
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await dropdown.first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-select-dropdown[class*="slide-up-"]'));
  await dropdown.locator('.ant-select-item-option', { hasText: label }).first().click();
  await expect.poll(() => select.textContent()).toContain(label);
}

/**
 * In the open release dialog, types `name` and confirms, once the dialog's zoom-in has ended
 * (a click during it once left the dialog open on a loaded runner), and waits for it to close.
 * `before` runs with the confirm button after the dialog settled (checks of its state).
 */
export async function confirmRelease(page: Page, name: string, before?: (confirm: Locator) => Promise<void>) {
  const confirm = page.getByTestId('release-confirm');
  await confirm.waitFor();
  await dialogsSettled(page);
  await before?.(confirm);
  await page.getByTestId('release-name').fill(name);
  await confirm.click();
  await confirm.waitFor({ state: 'detached' });
}

/** Clicks instance `id`'s row action and the confirm dialog's button of the same name. */
export async function confirmInstanceAction(page: Page, id: number, action: string) {
  await page.getByTestId(`instance-row-${id}`).getByRole('button', { name: action }).click();
  await answerConfirm(page, action);
}
