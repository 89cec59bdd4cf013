import path from 'node:path';
import type { Instance, MarketList } from '@gpu/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './env';
import {
  adminLogin,
  answerConfirm,
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  seedSession,
  settledInstance,
  siteUrl,
  userCall,
} from './helpers';

// Power off as a job: on a slowed host the console shows 关机中 with a spinner at once and keeps
// polling until the job has stopped the container (then 已关机 and the toast).

const HOST = 'nm-a-l40s-01';
const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';

let browser: Browser;
let context: BrowserContext;
let admin: string;
let hostId: number;
let settings: Record<string, unknown>;

type HostRow = { id: number; name: string; settings: Record<string, unknown> };
const setLatency = (latencyMs: number) =>
  api(`/admin/hosts/${hostId}`, {
    method: 'PUT',
    token: admin,
    body: { settings: { ...settings, latencyMs } },
  });

beforeAll(async () => {
  browser = await launchBrowser();
  admin = (await adminLogin()).token;
  const hosts = await api<{ list: HostRow[] }>('/admin/hosts?page=1&size=100', { token: admin });
  const host = hosts.list.find((h) => h.name === HOST) as HostRow;
  hostId = host.id;
  settings = (await api<HostRow>(`/admin/hosts/${hostId}`, { token: admin })).settings;
});
afterAll(async () => {
  await setLatency(0).catch(() => undefined);
  await context?.close();
  await browser?.close();
});

describe('console: power off on a slow host', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`shows 关机中 with a spinner while the job runs, then 已关机 (${label} px)`, async () => {
      const session = await registerUser();
      await fundUser(session.accessToken, 500);
      const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
      const item = market.list.find((i) => i.hostName === HOST);
      const accepted = await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
        machineId: item?.id,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
        instanceName: `slow-${label}`,
      });
      const inst = await settledInstance<Instance>(session.accessToken, accepted.id);
      expect(inst.status).toBe('RUNNING');
      context = await browser.newContext({ viewport });
      await seedSession(context, { token: session.accessToken, user: session.user });
      const page: Page = await context.newPage();
      await page.goto(siteUrl('localhost', '/console/instance'));
      const row = page.getByTestId(`instance-${label === '390' ? 'card' : 'row'}-${inst.id}`);
      await row.waitFor();
      await setLatency(6000);
      await row.getByRole('button', { name: '关机' }).click();
      await answerConfirm(page, '关机');
      const status = row.getByTestId('instance-status');
      await status.filter({ hasText: '关机中' }).waitFor({ timeout: 5_000 });
      // The answer came back while the driver still sleeps: the server says STOPPING too.
      const { list } = await userCall<{ list: Instance[] }>(session.accessToken, '/gpu/instances?size=100');
      expect(list.find((i) => i.id === inst.id)?.status).toBe('STOPPING');
      expect(await row.getByTestId('status-spinner').count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, `power-job-stopping-${label}.png`) });
      await status.filter({ hasText: '已关机' }).waitFor({ timeout: 20_000 });
      await page.locator('.ant-message-notice').filter({ hasText: '实例已关机' }).first().waitFor();
      await setLatency(0);
      await context.close();
    }, 60_000);
  }
});
