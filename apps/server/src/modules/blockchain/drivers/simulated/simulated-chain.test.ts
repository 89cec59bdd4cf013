import { createTestDatabase } from '../../../../test/test-app.ts';
import { createBlockchainRepository } from '../../blockchain.repository.ts';
import { chainDriverContract } from '../chain-drivers.test-suite.ts';
import { createSimulatedChainDriver } from './simulated-chain.ts';

chainDriverContract('simulated', async () => {
  const database = await createTestDatabase();
  const repo = createBlockchainRepository({ db: database.db });
  return {
    driver: createSimulatedChainDriver({ db: database.db }),
    // What the simulated confirm page writes when its buttons are pressed.
    confirmTransfer: (t) => repo.putSimulatedTx({ ...t, status: 'CONFIRMED' }),
    failTransfer: (t) => repo.putSimulatedTx({ ...t, status: 'FAILED' }),
    close: () => database.close(),
  };
});
