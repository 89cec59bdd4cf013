import type { Instance } from '@gpu/shared';
import type { Locator, Page } from 'playwright-core';
import { userCall } from './helpers';

// Instance helpers the console's 更多-menu browser tests share (clone, reset, save as image,
// no-GPU mode, other GPUs).

/** What a test file rents; released at its end (hosts are shared by other browser tests). */
export type Rented = Array<{ token: string; id: number }>;

/** Releases what a file rented; one already gone is fine. */
export async function releaseAll(rented: Rented) {
  for (const r of rented)
    await userCall(r.token, `/gpu/instance/release?instance_uuid=${r.id}`, {}).catch(() => undefined);
}

export const listInstances = async (token: string) =>
  (await userCall<{ list: Instance[] }>(token, '/gpu/instances?size=100')).list;

/**
 * The instance `which` (its id, or a test on it) once no job runs on it: its status is none of
 * the transitional `busy` ones.
 */
export async function stableInstance(
  token: string,
  which: number | ((i: Instance) => boolean),
  busy: readonly Instance['status'][],
): Promise<Instance> {
  const find = typeof which === 'number' ? (i: Instance) => i.id === which : which;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const inst = (await listInstances(token)).find(find);
    if (inst && !busy.includes(inst.status)) return inst;
    const name = typeof which === 'number' ? `instance ${which}` : 'instance';
    if (Date.now() > deadline) throw new Error(`${name} still ${inst?.status ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The instance once its job has brought it to `status` (power jobs answer in STOPPING/STARTING). */
export async function instanceUntil(
  token: string,
  id: number,
  status: Instance['status'],
): Promise<Instance> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { list } = await userCall<{ list: Instance[] }>(token, '/gpu/instances?page=1&size=100');
    const found = list.find((i) => i.id === id) as Instance;
    if (found.status === status || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Opens the row's 更多 menu once nothing moves, and answers its item `label`. */
export async function moreItem(page: Page, row: Locator, label: RegExp) {
  await row.getByTestId('instance-more').click();
  const item = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: label });
  await item.first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-dropdown[class*="slide-"]'));
  return item.first();
}
