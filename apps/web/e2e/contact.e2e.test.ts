import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLogin, api, chooseOption, clickSettled, DESKTOP, launchBrowser, MOBILE } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// /contact (SPEC.md §2, §5, §8) and its back-office list (咨询管理) against the real server.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const errors = (page: Page) =>
  page.locator('[data-testid="enquiry-form"] .ant-form-item-explain-error').allTextContents();
let phoneSeq = 0;
const freshPhone = () => `0755-${String(Date.now() % 1e7).padStart(7, '0')}${phoneSeq++}`;

const choose = (page: Page, product: string) =>
  chooseOption(page, page.getByTestId('enquiry-product'), product);

describe('bare-metal enquiry (desktop)', () => {
  it('shows every rule message, then submits and the back office marks it handled', async () => {
    const context = await openContext(browser, DESKTOP);
    const page = await visit(context, '/contact');
    expect(await page.title()).toMatch(/^GPU裸金属 - /);
    expect(await page.getByTestId('enquiry-quantity').inputValue()).toBe('1');

    await page.getByTestId('enquiry-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '请选择咨询产品' }).waitFor();
    expect(await errors(page)).toEqual(['请输入联系人', '请输入联系电话', '请选择咨询产品']);

    await page.getByTestId('enquiry-phone').fill('12-ab');
    await page.getByTestId('enquiry-quantity').fill('101');
    await page.getByTestId('enquiry-submit').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '数量必须在1-100之间' }).waitFor();
    expect(await errors(page)).toContain('请输入有效的电话');
    await page.getByTestId('enquiry-quantity').fill('');
    await page.getByTestId('enquiry-quantity').blur();
    await page.locator('.ant-form-item-explain-error', { hasText: '请输入数量' }).waitFor();

    const phone = freshPhone();
    await page.getByTestId('enquiry-name').fill('测试联系人');
    await page.getByTestId('enquiry-phone').fill(phone);
    await page.getByTestId('enquiry-quantity').fill('8');
    await choose(page, 'GPU裸金属服务器');
    await page.getByTestId('enquiry-submit').click();
    await toast(page, '咨询提交成功，我们会尽快联系您！');
    await shot(page, 'contact-desktop');

    const { token, admin } = await adminLogin();
    const list = await api<{ list: { phone: string; quantity: number; status: string }[] }>(
      `/admin/enquiries?keyword=${encodeURIComponent(phone)}`,
      { token },
    );
    expect(list.list).toMatchObject([{ phone, quantity: 8, status: 'NEW' }]);

    const adminContext = await openContext(browser, DESKTOP, { adminToken: token, admin });
    const adminPage = await visit(adminContext, '/admin/enquiries');
    expect(await adminPage.title()).toMatch(/^咨询管理 - /);
    await adminPage.getByRole('menuitem', { name: '咨询管理' }).waitFor();
    const row = adminPage.locator('tr', { hasText: phone });
    await row.waitFor();
    await shot(adminPage, 'admin-enquiries-desktop');
    await row.getByTestId('enquiry-handle').click();
    await adminPage.getByTestId('enquiry-note').fill('已电话联系');
    await clickSettled(adminPage, adminPage.getByRole('button', { name: '确定' }));
    await toast(adminPage, '已标记为已处理');
    const handled = await api<{ list: { status: string; handledNote: string }[] }>(
      `/admin/enquiries?keyword=${encodeURIComponent(phone)}`,
      { token },
    );
    expect(handled.list[0]).toMatchObject({ status: 'HANDLED', handledNote: '已电话联系' });
    await adminContext.close();
    await context.close();
  });

  it('shows the server message when refused (too many from one phone)', async () => {
    const context = await openContext(browser, DESKTOP);
    const page = await visit(context, '/contact');
    const phone = freshPhone();
    for (let i = 0; i < 3; i++)
      await api('/contact/inquiry', { body: { name: '甲', phone, product: '算力中心建设', quantity: 1 } });
    await page.getByTestId('enquiry-name').fill('甲');
    await page.getByTestId('enquiry-phone').fill(phone);
    await choose(page, '算力中心建设');
    await page.getByTestId('enquiry-submit').click();
    await toast(page, '提交过于频繁，请稍后再试');
    await context.close();
  });

  it('preselects the service of the homepage card that linked here', async () => {
    const context = await openContext(browser, DESKTOP);
    const page = await visit(context, '/');
    await page.getByTestId('service-card').nth(1).getByRole('link').click();
    await page.waitForURL(/\/contact\?product=/);
    await page.getByTestId('enquiry-product').filter({ hasText: '算力中心建设' }).waitFor();
    await context.close();
  });
});

describe('bare-metal enquiry (390 px)', () => {
  it('fits the phone; screenshot', async () => {
    const context = await openContext(browser, MOBILE);
    const page = await visit(context, '/contact');
    await page.getByTestId('enquiry-submit').waitFor();
    await expectNoSidewaysScroll(page);
    await shot(page, 'contact-mobile');
    await context.close();
  });
});

describe('enquiries back office (390 px)', () => {
  it('lists enquiries on a phone; screenshot', async () => {
    const { token, admin } = await adminLogin();
    const context = await openContext(browser, MOBILE, { adminToken: token, admin });
    const page = await visit(context, '/admin/enquiries');
    await page.getByTestId('enquiries-table').waitFor();
    await page.getByTestId('enquiry-status-filter').waitFor();
    await shot(page, 'admin-enquiries-mobile');
    await context.close();
  });
});
