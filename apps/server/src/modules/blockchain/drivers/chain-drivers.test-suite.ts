import { randomBytes } from 'node:crypto';
import type { Chain, ChainCurrency } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainStatusDriver } from './chain-driver.ts';

export interface ChainTransfer {
  chain: Chain;
  txHash: string;
  currency: ChainCurrency;
  amountMicro: number;
}

/**
 * What a driver's contract run needs: the driver, and a way to make transfers happen on its chain
 * (the simulated page; a devnet or testnet transfer to the receiving address for an RPC driver).
 */
export interface ChainHarness {
  driver: ChainStatusDriver;
  /** A transfer of `amountMicro` that the chain finalises. */
  confirmTransfer(t: ChainTransfer): Promise<void>;
  /** A transaction the chain reverts. */
  failTransfer(t: ChainTransfer): Promise<void>;
  close(): Promise<void>;
}

const newHash = () => randomBytes(32).toString('hex');

/** One contract, every chain driver: run by each driver's test file (DESIGN §2). */
export function chainDriverContract(name: string, setup: () => Promise<ChainHarness>) {
  describe(`chain driver contract: ${name}`, () => {
    let h: ChainHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it('does not know a transaction that never happened', async () => {
      const state = await h.driver.lookup({ chain: 'TRON', txHash: newHash(), currency: 'USDT' });
      expect(state.status).toBe('NOT_FOUND');
    });

    it('reports a final transfer with its amount and currency, the same on every ask', async () => {
      const t: ChainTransfer = {
        chain: 'TRON',
        txHash: newHash(),
        currency: 'USDT',
        amountMicro: 12_500_000,
      };
      await h.confirmTransfer(t);
      for (let i = 0; i < 2; i++) {
        const state = await h.driver.lookup({ chain: t.chain, txHash: t.txHash, currency: t.currency });
        expect(state).toMatchObject({ status: 'CONFIRMED', amountMicro: 12_500_000, currency: 'USDT' });
        if (state.status === 'CONFIRMED') expect(state.confirmations).toBeGreaterThan(0);
      }
    });

    it('keeps chains apart: a hash on one chain is unknown on the other', async () => {
      const t: ChainTransfer = {
        chain: 'ETHEREUM',
        txHash: newHash(),
        currency: 'USDC',
        amountMicro: 1_000_000,
      };
      await h.confirmTransfer(t);
      expect((await h.driver.lookup({ chain: 'TRON', txHash: t.txHash, currency: 'USDC' })).status).toBe(
        'NOT_FOUND',
      );
    });

    it('never reports a transfer of another currency as confirmed for the one asked', async () => {
      const t: ChainTransfer = { chain: 'TRON', txHash: newHash(), currency: 'USDC', amountMicro: 5_000_000 };
      await h.confirmTransfer(t);
      const state = await h.driver.lookup({ chain: t.chain, txHash: t.txHash, currency: 'USDT' });
      expect(state.status).not.toBe('CONFIRMED');
    });

    it('reports a reverted transaction as failed with a reason', async () => {
      const t: ChainTransfer = { chain: 'TRON', txHash: newHash(), currency: 'USDT', amountMicro: 2_000_000 };
      await h.failTransfer(t);
      const state = await h.driver.lookup({ chain: t.chain, txHash: t.txHash, currency: t.currency });
      expect(state.status).toBe('FAILED');
      if (state.status === 'FAILED') expect(state.reason).toBeTruthy();
    });
  });
}
