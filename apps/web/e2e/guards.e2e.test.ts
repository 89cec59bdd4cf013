import type { AutoShutdown, SpendingCaps } from '@gpu/shared/guards';
import { formatTime } from '@gpu/shared/time';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickSettled,
  DESKTOP,
  dialogsSettled,
  fundUser,
  launchBrowser,
  MOBILE,
  registerUser,
  rentInstance,
  seedSession,
  shot,
  siteUrl,
  toast,
  userCall,
} from './helpers';
import { releaseAll } from './instance-helpers';

// Guards (issue 31): 更多 → 自动关机 sets 定时关机 (after 3 hours of running), the row and the
// phone card show when it powers off, cancelling takes the marker away; 消费上限 saves a daily
// cap and shows what is spent against it. One H100 rented on gd-b-h100-01 (few files use it),
// released at the end.

const HOST = 'gd-b-h100-01';
let browser: Browser;
const contexts: BrowserContext[] = [];
const cleanup: Array<{ token: string; id: number }> = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseAll(cleanup);
  for (const c of contexts) await c.close();
  await browser?.close();
});

async function signedIn(
  owner: Awaited<ReturnType<typeof registerUser>>,
  viewport: typeof DESKTOP | typeof MOBILE,
) {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await seedSession(context, { token: owner.accessToken, user: owner.user });
  return context.newPage();
}

describe('console: 自动关机 and 消费上限', () => {
  it('sets a scheduled shutdown from 更多, shows it on the row and the phone card, cancels it', async () => {
    const owner = await registerUser();
    await fundUser(owner.accessToken, 300);
    const inst = await rentInstance(owner.accessToken, { name: 'guard-e2e', host: HOST });
    cleanup.push({ token: owner.accessToken, id: inst.id });

    const page = await signedIn(owner, DESKTOP);
    await page.goto(siteUrl('localhost', '/console/instance'));
    const row = page.getByTestId(`instance-row-${inst.id}`);
    await row.waitFor();
    await row.getByTestId('instance-more').click();
    await page.getByTestId('more-auto-shutdown').click();
    const dialog = page.getByTestId('auto-shutdown-dialog');
    await dialog.waitFor();
    await dialogsSettled(page);
    await dialog.getByText('运行一段时间后').click();
    await page.getByTestId('schedule-hours').fill('3');
    await page.getByTestId('instance-cap').fill('50');
    await shot(page, 'guards-dialog-1440');
    await clickSettled(page, page.getByTestId('auto-shutdown-save'));
    await toast(page, '自动关机设置已保存');

    const saved = await userCall<AutoShutdown>(owner.accessToken, `/gpu/instance/${inst.id}/auto-shutdown`);
    expect(saved).toMatchObject({ schedule: { mode: 'after', hours: 3 }, spendingCap: 50 });
    const at = saved.pending?.shutdownAt as string;
    expect(Date.parse(at) - Date.parse(inst.runningSince as string)).toBe(3 * 3600_000);
    const text = `定时关机 ${formatTime(at, 'MM-DD HH:mm')}`;
    const marker = row.getByTestId(`guard-marker-${inst.id}`);
    await marker.filter({ hasText: text }).waitFor();
    await shot(page, 'guards-row-1440');

    const phone = await signedIn(owner, MOBILE);
    await phone.goto(siteUrl('localhost', '/console/instance'));
    const card = phone.getByTestId(`instance-card-${inst.id}`);
    await card.getByTestId(`guard-marker-${inst.id}`).filter({ hasText: text }).waitFor();
    await shot(phone, 'guards-card-390');

    // Cancel: 不定时, and the marker goes.
    await row.getByTestId('instance-more').click();
    await page.getByTestId('more-auto-shutdown').click();
    await dialog.waitFor();
    await dialogsSettled(page);
    await dialog.getByText('不定时').click();
    await clickSettled(page, page.getByTestId('auto-shutdown-save'));
    await marker.waitFor({ state: 'detached' });
    const after = await userCall<AutoShutdown>(owner.accessToken, `/gpu/instance/${inst.id}/auto-shutdown`);
    expect(after).toMatchObject({ schedule: { mode: 'off' }, pending: null });
  });

  it('消费上限: saves a daily cap and the idle default, shows what is spent', async () => {
    const owner = await registerUser();
    const page = await signedIn(owner, DESKTOP);
    await page.goto(siteUrl('localhost', '/console/spending-caps'));
    await page.getByTestId('spending-caps-card').waitFor();
    await page.getByTestId('daily-cap').fill('100');
    await page.getByTestId('idle-default-enabled').click();
    await page.getByTestId('caps-save').click();
    await toast(page, '消费上限已保存');
    await page.getByTestId('spent-today').filter({ hasText: '¥0.00 / ¥100.00' }).waitFor();
    await shot(page, 'guards-caps-1440');
    const caps = await userCall<SpendingCaps>(owner.accessToken, '/user/spending-caps');
    expect(caps).toMatchObject({ dailyCap: 100, monthlyCap: null, idleDefault: { enabled: true } });

    const phone = await signedIn(owner, MOBILE);
    await phone.goto(siteUrl('localhost', '/console/spending-caps'));
    await phone.getByTestId('spent-today').filter({ hasText: '¥100.00' }).waitFor();
    await shot(phone, 'guards-caps-390');
  });
});
