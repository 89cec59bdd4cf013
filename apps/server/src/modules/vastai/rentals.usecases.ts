import type { DbOrTx } from '../../platform/db/client.ts';
import type { VastaiRentals } from '../hosts/index.ts';
import { createVastaiRepository } from './vastai.repository.ts';

/**
 * The rentals as the vast.ai driver reads them: what an overseas instance rents (its offer and
 * disk), from which the driver makes its container spec. The app hands this to the driver.
 */
export function createVastaiRentals(deps: { db: DbOrTx }): VastaiRentals {
  return {
    async rentalOf(instanceId) {
      const rental = await createVastaiRepository(deps).rental(instanceId);
      return rental && { offerId: rental.offerId, diskGb: rental.diskGb };
    },
  };
}
