import type { VastClient } from '../hosts/index.ts';
import type { InstanceDeps } from '../instances/index.ts';
import type { OverseasPricing } from './vastai.models.ts';

/** What the overseas usecases need: the instances' deps, vast.ai's client (null without a key), prices. */
export interface VastaiDeps extends InstanceDeps {
  vast: VastClient | null;
  pricing: OverseasPricing;
}

/** The module's deps: the usecases' plus how often the offers are refreshed (VASTAI_REFRESH_S). */
export interface VastaiModuleDeps extends VastaiDeps {
  refreshMs: number;
}
