import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, loadConfig, productionSettings } from '../../test/test-app.ts';
import { DEMO_CHAIN_ADDRESSES, receivingNetworks } from './blockchain.models.ts';

// GET /api/blockchain/networks: where a customer pays on each network (issue "What customers see").

type T = Awaited<ReturnType<typeof createTestApp>>;
const apps: T[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));
async function app(config: Record<string, string> = {}) {
  const t = await createTestApp({ demo: false, config });
  apps.push(t);
  return t;
}
const order = (chain: string) => ({
  chain,
  currency: 'USDT',
  amount: '10',
  txHash: randomBytes(32).toString('hex'),
});

const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const ETH = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('blockchain receiving networks', () => {
  it('needs a signed-in user', async () => {
    const t = await app();
    expect((await t.app.inject({ method: 'GET', url: '/api/blockchain/networks' })).statusCode).toBe(401);
  });

  it('outside production without settings: the demo addresses, flagged demo, with minimum and confirmations', async () => {
    const t = await app();
    const { headers } = await t.createUser();
    const res = await t.app.inject({ method: 'GET', url: '/api/blockchain/networks', headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      {
        chain: 'TRON',
        label: 'TRON (TRC-20)',
        currencies: ['USDT', 'USDC'],
        address: DEMO_CHAIN_ADDRESSES.TRON,
        demo: true,
        minAmount: 1,
        confirmations: 19,
      },
      {
        chain: 'ETHEREUM',
        label: 'Ethereum (ERC-20)',
        currencies: ['USDT', 'USDC'],
        address: DEMO_CHAIN_ADDRESSES.ETHEREUM,
        demo: true,
        minAmount: 1,
        confirmations: 12,
      },
    ]);
  });

  it('shows the configured address per network, not flagged demo', async () => {
    const t = await app({ CHAIN_TRON_ADDRESS: TRON, CHAIN_ETHEREUM_ADDRESS: ETH });
    const { headers } = await t.createUser();
    const res = await t.app.inject({ method: 'GET', url: '/api/blockchain/networks', headers });
    const [tron, eth] = res.json().data;
    expect([tron.address, tron.demo, eth.address, eth.demo]).toEqual([TRON, false, ETH, false]);
  });

  it('refuses a malformed address setting, naming it', () => {
    expect(() => loadConfig({ APP_SECRET: 'x'.repeat(40), CHAIN_TRON_ADDRESS: '0xabc' })).toThrow(
      /CHAIN_TRON_ADDRESS:/,
    );
    expect(() => loadConfig({ APP_SECRET: 'x'.repeat(40), CHAIN_ETHEREUM_ADDRESS: TRON })).toThrow(
      /CHAIN_ETHEREUM_ADDRESS:/,
    );
  });

  it('in production never makes an address up: an unconfigured network shows none and takes no orders', async () => {
    const config = loadConfig({
      APP_SECRET: 'x'.repeat(40),
      ...productionSettings(),
      CHAIN_ETHEREUM_ADDRESS: ETH,
    });
    const networks = receivingNetworks(config);
    expect(networks.map((n) => [n.chain, n.address, n.demo])).toEqual([
      ['TRON', null, false],
      ['ETHEREUM', ETH, false],
    ]);

    // The same deps on a running app: the order route refuses the network without an address.
    const t = await app();
    t.app.deps.modules.blockchain.networks = networks;
    const { headers } = await t.createUser();
    const list = await t.app.inject({ method: 'GET', url: '/api/blockchain/networks', headers });
    expect(list.json().data[0].address).toBeNull();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/blockchain/orders',
      headers,
      payload: order('TRON'),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('参数 chain 无效：该网络暂未开通收款');
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/blockchain/orders',
      headers,
      payload: order('ETHEREUM'),
    });
    expect(taken.statusCode, taken.body).toBe(200);
  });
});
