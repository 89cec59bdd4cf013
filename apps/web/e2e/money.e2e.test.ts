import type { BillingMonitorInfo, Instance, MarketList } from '@gpu/shared';
import { formatMoney } from '@gpu/shared/money';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerConfirm,
  api,
  DESKTOP,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  settledInstance,
  userCall,
} from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// Money where decisions are made (issue 28): the instance list's header shows the spend rate and
// how long the balance lasts at it, like 控制台首页, and follows instances powering off.

const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

/** An hourly instance on the market's first host with a free GPU that no other file rents from. */
async function rentHourly(session: Session): Promise<Instance> {
  const market = await userCall<MarketList>(session.accessToken, '/gpu/market?size=48');
  const item = market.list.find((i) => i.gpuIdleNum >= 1 && !i.hostName.includes('l40s'));
  if (!item) throw new Error('no free GPU in the market');
  const accepted = await userCall<Instance>(session.accessToken, '/gpu/instance/create', {
    machineId: item.id,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
    instanceName: 'runway-box',
  });
  return settledInstance<Instance>(session.accessToken, accepted.id);
}

async function release(session: Session, id: number) {
  await userCall(session.accessToken, `/gpu/instance/release?instance_uuid=${id}`, {}).catch(() => undefined);
}

const monitor = (session: Session) =>
  api<BillingMonitorInfo>('/v2/billing/monitor/info', { token: session.accessToken });

/** The instance's power-off button, on the table row (desktop) or the card (phone). */
const powerOffButton = (page: Page, id: number, desktop: boolean) =>
  page
    .getByTestId(desktop ? `instance-row-${id}` : `instance-card-${id}`)
    .getByRole('button', { name: '关机' });

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['390 px', MOBILE],
] as const) {
  const tag = size === 'desktop' ? 'desktop' : 'mobile';
  const desktop = viewport === DESKTOP;

  describe(`实例列表 spend rate and runway (${size})`, () => {
    let session: Session;
    let inst: Instance;
    beforeAll(async () => {
      session = await registerUser();
      await fundUser(session.accessToken, 1000);
      inst = await rentHourly(session);
    });
    afterAll(() => release(session, inst.id));

    it('shows the rate and the hours the balance lasts, and clears them when the instance powers off', async () => {
      expect(inst.status).toBe('RUNNING');
      const m = await monitor(session);
      expect(m.hourlyBurn).toBeGreaterThan(0);
      expect(m.estimatedHoursLeft).not.toBeNull();

      const context = await openContext(browser, viewport, {
        token: session.accessToken,
        user: session.user,
      });
      const page = await visit(context, '/console/instance');
      const rate = page.getByTestId('spend-rate');
      await rate.waitFor();
      // The same figures as 控制台首页's card, through the same formatter.
      expect(await rate.textContent()).toBe(`按量消耗 ${formatMoney(m.hourlyBurn)}/时`);
      expect(await page.getByTestId('spend-hours-left').textContent()).toBe(
        `余额预计可用约 ${m.estimatedHoursLeft} 小时`,
      );
      // In the header, under the title, inside the screen.
      const title = await page.locator('h1').first().boundingBox();
      const runway = await page.getByTestId('spend-runway').boundingBox();
      if (!title || !runway) throw new Error('header has no box');
      expect(runway.y).toBeGreaterThanOrEqual(title.y + title.height - 1);
      expect(runway.x + runway.width).toBeLessThanOrEqual(viewport.width);
      await expectNoSidewaysScroll(page);
      await shot(page, `instances-runway-${tag}`);

      const home = await visit(context, '/console/homepage');
      const burn = home.getByTestId('overview-burn');
      await burn.waitFor();
      expect(await burn.textContent()).toBe(`${formatMoney(m.hourlyBurn)}/时`);
      expect(await home.getByText(`余额预计可用约 ${m.estimatedHoursLeft} 小时`).count()).toBe(1);
      await home.close();

      // Powering off stops the spend: the header follows without a reload.
      await powerOffButton(page, inst.id, desktop).click();
      await answerConfirm(page, '关机');
      await page.getByTestId('spend-hours-left').filter({ hasText: '当前没有按量计费的实例在运行' }).waitFor({
        timeout: 20_000,
      });
      expect(await page.getByTestId('spend-rate').textContent()).toBe(`按量消耗 ${formatMoney(0)}/时`);
      await context.close();
    });
  });
}
