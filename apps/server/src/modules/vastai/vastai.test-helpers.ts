import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { startFakeVast } from '../hosts/drivers/vastai/fake-vastai.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { refreshOffers } from './vastai.usecases.ts';

export type Item = {
  id: number;
  skuGpuId: string;
  gpuName: string;
  price: number;
  gpuNum: number;
  regionName: string;
};

export type OverseasTestApp = Awaited<ReturnType<typeof instanceTestApp>>;

/**
 * A fake vast.ai and the demo world configured for it (7.2 yuan a dollar, 30 % margin), its
 * offers refreshed once and its host polling fast. Close both after.
 */
export async function overseasTestApp(clock: Clock) {
  const fake = await startFakeVast({ stepMs: 30 });
  const h = await instanceTestApp(clock, {
    VASTAI_API_KEY: fake.apiKey,
    VASTAI_API_URL: fake.url,
    VASTAI_USD_CNY: '7.2',
    VASTAI_MARGIN_PERCENT: '30',
  });
  await refreshOffers(h.t.app.deps.modules.vastai);
  // The vast.ai "host" polls its instances fast in tests.
  await h.t.db
    .update(hosts)
    .set({ settings: { pollMs: 10, startWaitMs: 5_000 } })
    .where(eq(hosts.driver, 'vastai'));
  return { fake, h };
}

/** The market as the anonymous console reads it. */
export const marketItemsOf = async (h: OverseasTestApp, q = '') => {
  h.t.app.deps.modules.market.market.invalidate();
  const res = await h.t.app.inject({ method: 'GET', url: `/api/gpu/market?size=48${q}` });
  return res.json().data as {
    list: Item[];
    regions: { name: string; overseas: boolean }[];
    gpuModels: string[];
  };
};
