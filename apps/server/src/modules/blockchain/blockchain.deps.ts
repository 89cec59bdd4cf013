import type { BlockchainNetwork } from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { ChainStatusDriver } from './drivers/chain-driver.ts';

/** What the blockchain usecases and the poll task take (blockchain.module.ts builds it). */
export interface BlockchainDeps {
  db: Db;
  now: Now;
  chain: ChainStatusDriver;
  /** The simulated driver's confirm page of an order; null with a real chain. */
  confirmUrl: ((orderNo: string) => string) | null;
  log: FastifyBaseLogger;
  /** Receiving address per network (receivingNetworks). */
  networks: BlockchainNetwork[];
}
