import type { VastClient } from '../hosts/index.ts';
import type { InstanceDeps } from '../instances/index.ts';
import type { OverseasPricing } from './vastai.models.ts';

/** What the overseas usecases need: the instances' deps, vast.ai's client (null without a key), prices. */
export interface VastaiDeps extends InstanceDeps {
  vast: VastClient | null;
  pricing: OverseasPricing;
}
